#include "nccl/benchmark_registration.hpp"

#include <algorithm>
#include <cstdio>

#include "common/byte_size.hpp"
#include "harness/google_benchmark.hpp"

namespace p2p::nccl {
namespace {

void record_in_state(benchmark::State& st, const MeasuredCase& m) {
  const doc::CollectiveResult& r = m.result;
  if (!m.not_measured.empty()) {
    st.SkipWithError(m.not_measured.c_str());
    return;
  }
  if (m.sample_us.empty()) {
    st.SkipWithError((std::string(doc::to_string(r.status)) + ": " + r.detail).c_str());
    return;
  }
  std::vector<double> seconds;
  for (double us : m.sample_us) seconds.push_back(us * 1e-6);
  harness::replay_samples(st, seconds);
  // algbw counts the bytes one operation moves as nccl-tests does (algbw_bytes = algbw * time).
  if (r.algbw_gbps && r.time_us) {
    const double bytes_per_op = *r.algbw_gbps * 1e9 * *r.time_us * 1e-6;
    st.SetBytesProcessed(
        static_cast<std::int64_t>(bytes_per_op * static_cast<double>(st.iterations())));
  }
  if (r.algbw_gbps) st.counters["algbw_gbps"] = *r.algbw_gbps;
  if (r.busbw_gbps) st.counters["busbw_gbps"] = *r.busbw_gbps;
  if (r.time_us) st.counters["time_us"] = *r.time_us;
  if (r.wrong_elements) st.counters["wrong_elements"] = static_cast<double>(*r.wrong_elements);
  if (r.status != doc::CollectiveStatus::kOk)
    st.SkipWithError((std::string(doc::to_string(r.status)) + ": " + r.detail).c_str());
}

}  // namespace

std::string benchmark_name(const PlannedCase& c) {
  std::string name = to_string(c.op.collective) + "/" + to_string(c.op.dtype) + "/" +
                     doc::placement_word(c.in_place) + "/";
  if (c.op.collective == Collective::kSendRecvPair) {
    name += std::to_string(c.op.src_rank) + "->" + std::to_string(c.op.dst_rank) + "/";
  }
  return name +
         format_bytes(c.shape.size_bytes, ByteStyle::kCompact);  // "64MiB", as bench names sizes
}

void register_nccl_benchmarks(const std::vector<PlannedCase>& plan, int timing_groups,
                              MeasureCaseFn measure_one) {
  auto shared = std::make_shared<MeasureCaseFn>(std::move(measure_one));
  for (const PlannedCase& c : plan) {
    auto* b = benchmark::RegisterBenchmark(
        benchmark_name(c).c_str(),
        [c, shared](benchmark::State& st) { record_in_state(st, (*shared)(c)); });
    b->UseManualTime()->Iterations(std::max(1, timing_groups))->Unit(benchmark::kMicrosecond);
  }
}

std::string describe_nccl_run(const benchmark::BenchmarkReporter::Run& run) {
  const benchmark::Counter* alg = harness::find_counter(run, "algbw_gbps");
  const benchmark::Counter* bus = harness::find_counter(run, "busbw_gbps");
  const benchmark::Counter* us = harness::find_counter(run, "time_us");
  if (alg == nullptr || bus == nullptr || us == nullptr) return "";
  char text[96] = {};
  std::snprintf(text, sizeof(text), "algbw %.2f GB/s, busbw %.2f GB/s, %.1f us", alg->value,
                bus->value, us->value);
  return text;
}

}  // namespace p2p::nccl
