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

using doc::RankedGroup;  // document/infer_records.hpp
using doc::TpRanking;

// One ranking per TP size of the plan, in plan order.
std::vector<TpRanking> rank_groups(const InferPlan& plan, const std::vector<GroupResult>& groups,
                                   const std::string& message, int usable_gpus);

// The recommended group of a ranking: its first group, when that one has a figure.
std::optional<RankedGroup> recommended(const TpRanking& r);

}  // namespace p2p::infer
