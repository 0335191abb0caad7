// Which group to serve each tensor-parallel size on: the measured groups of one size ordered by
// the all-reduce cost of one generated token at the ranking message (P2P on, as the host runs).
// Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "infer/plan.hpp"
#include "infer/results.hpp"

namespace p2p::infer {

// The message groups are ranked by: `decode_b<batch>` where --rank-batch is given (InputError
// when the plan has no such batch), else the largest decode batch (the message that differs most
// between groups once the links, not the launch latency, dominate), else the largest prefill.
std::string ranking_message(const InferPlan& plan, const std::optional<std::uint64_t>& rank_batch);

struct RankedGroup {
  std::size_t group = 0;                  // index into the results' groups
  std::optional<double> step_us;          // at the ranking message, P2P on; null where not measured
  std::optional<double> p2p_off_step_us;  // the same with P2P off, where measured
};

struct TpRanking {
  int tp = 0;
  std::string message;              // the ranking message
  std::vector<RankedGroup> groups;  // best first; groups without a figure last, in input order
  std::string note;                 // why there is no group ("needs 8 GPUs, 4 usable"), else ""
};

// One ranking per TP size of the plan, in plan order.
std::vector<TpRanking> rank_groups(const InferPlan& plan, const std::vector<GroupResult>& groups,
                                   const std::string& message, int usable_gpus);

// The recommended group of a ranking: its first group, when that one has a figure.
std::optional<RankedGroup> recommended(const TpRanking& r);

}  // namespace p2p::infer
