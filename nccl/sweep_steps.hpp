// The steps a sweep across processes runs, in order (run/rank_sweep.hpp): the planned cases one at
// a time, then, across MPI hosts, the host-pair rounds, whose pairs run at the same time.
// Pure, so the CPU tests check which ranks meet when.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nccl/dtype.hpp"
#include "nccl/host_pairing.hpp"
#include "nccl/plan.hpp"
#include "nccl/rank_layout.hpp"

namespace p2p::nccl {

// A case of a step, with the name and index its result lines carry.
struct StepCase {
  PlannedCase planned;
  std::string name;
  int index = 0;  // position among all cases of the sweep (plan first, then host pairs)
};

// Cases that run at the same time on disjoint ranks (the pairs of one host-pair round, in one
// direction); each process runs the one it takes part in, if any. A planned case is a step
// of its own.
struct SweepStep {
  std::vector<StepCase> cases;
};

// One step per planned case, named benchmark_name(case), indexed from `first_index`.
std::vector<SweepStep> one_case_per_step(const std::vector<PlannedCase>& plan, int first_index = 0);

// What a host-pair case measured, beside the case itself.
struct HostPairCase {
  StepCase step_case;
  int round = 0;
  int src_host = 0;
  int dst_host = 0;
};

// For every round of round_robin_rounds(hosts): one step where the lower host of each pair
// sends to the higher, then one the other way, each a kSendRecvPair of `bytes` in `dtype`
// between the hosts' representative ranks (host_representatives). Named
// "host_pair/<src host>-><dst host>/<size>" with host indices, indexed from `first_index`.
// Empty for fewer than two hosts, or a size too small for one element.
std::vector<std::vector<HostPairCase>> host_pair_steps(const RankLayout& layout, DataType dtype,
                                                       std::uint64_t bytes, int first_index);

// The steps of host_pair_steps, as the sweep runs them.
std::vector<SweepStep> as_steps(const std::vector<std::vector<HostPairCase>>& host_steps);

}  // namespace p2p::nccl
