#include "nccl/sweep_steps.hpp"

#include "common/byte_size.hpp"
#include "nccl/benchmark_registration.hpp"

namespace p2p::nccl {

std::vector<SweepStep> one_case_per_step(const std::vector<PlannedCase>& plan, int first_index) {
  std::vector<SweepStep> steps;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    steps.push_back(
        SweepStep{{StepCase{plan[i], benchmark_name(plan[i]), first_index + static_cast<int>(i)}}});
  }
  return steps;
}

std::vector<std::vector<HostPairCase>> host_pair_steps(const RankLayout& layout, DataType dtype,
                                                       std::uint64_t bytes, int first_index) {
  std::vector<std::vector<HostPairCase>> steps;
  const CollectiveShape shape =
      shape_of(Collective::kSendRecvPair, bytes, element_bytes(dtype), layout.nranks);
  if (shape.count == 0) return steps;
  const std::vector<int> reps = host_representatives(layout);
  int index = first_index;
  const auto rounds = round_robin_rounds(static_cast<int>(layout.hosts.size()));
  for (std::size_t round = 0; round < rounds.size(); ++round) {
    for (const bool forward : {true, false}) {
      std::vector<HostPairCase> step;
      for (const HostPair& pair : rounds[round]) {
        HostPairCase c;
        c.round = static_cast<int>(round);
        c.src_host = forward ? pair.first : pair.second;
        c.dst_host = forward ? pair.second : pair.first;
        PlannedCase& p = c.step_case.planned;
        p.op.collective = Collective::kSendRecvPair;
        p.op.dtype = dtype;
        p.op.count = shape.count;
        p.op.src_rank = reps[static_cast<std::size_t>(c.src_host)];
        p.op.dst_rank = reps[static_cast<std::size_t>(c.dst_host)];
        p.shape = shape;
        c.step_case.name =
            "host_pair/" + std::to_string(c.src_host) + "->" + std::to_string(c.dst_host) + "/" +
            format_bytes(shape.size_bytes, ByteStyle::kCompact);  // as benchmark_name names sizes
        c.step_case.index = index++;
        step.push_back(std::move(c));
      }
      steps.push_back(std::move(step));
    }
  }
  return steps;
}

std::vector<SweepStep> as_steps(const std::vector<std::vector<HostPairCase>>& host_steps) {
  std::vector<SweepStep> out;
  for (const auto& step : host_steps) {
    SweepStep s;
    for (const HostPairCase& c : step) s.cases.push_back(c.step_case);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace p2p::nccl
