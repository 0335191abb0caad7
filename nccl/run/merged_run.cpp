#include "nccl/run/merged_run.hpp"

namespace p2p::nccl {

Measurement measurement_of(const MergedCase& m) {
  Measurement meas;
  meas.status = m.status;
  meas.detail = m.detail;
  meas.time_us = m.time_us;
  meas.sample_us = m.sample_us;
  meas.wrong_elements = m.wrong_elements;
  return meas;
}

doc::CollectiveResult merged_result(const RunOptions& o, const std::vector<PlannedCase>& plan,
                                    int nranks, const MergedCase& m) {
  return make_result(plan.at(static_cast<std::size_t>(m.index)), nranks, measurement_of(m), o);
}

void add_merged_ranks(doc::NcclRun& run, const RunOptions& o, const std::vector<PlannedCase>& plan,
                      int nranks, const MergedRun& merged) {
  run.environment.rank_processes = true;
  run.environment.buffer_allocator = merged.buffer_allocator.value_or("");
  for (const MergedCase& m : merged.cases) {
    if (m.index < 0 || m.index >= static_cast<int>(plan.size())) continue;
    run.results.push_back(merged_result(o, plan, nranks, m));
  }
  run.rank_process_ends = merged.ends;
  run.warnings = merged.warnings;
}

}  // namespace p2p::nccl
