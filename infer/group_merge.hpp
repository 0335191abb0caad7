// The rank processes' merged lines (nccl/rank_merge.hpp) as one group's results. Pure.
#pragma once

#include <vector>

#include "infer/plan.hpp"
#include "infer/results.hpp"
#include "nccl/rank_merge.hpp"

namespace p2p::infer {

// One MergeCase per message (every rank takes part), named message_name().
std::vector<nccl::MergeCase> merge_plan(const std::vector<Message>& messages, int nranks);

// Per message, in plan order: measured (its per-call times are the slowest rank's per call),
// or the status and detail the ranks gave, or not_run where no rank reported it. Problems are the
// merge's warnings: every rank that did not end "done", and why.
GroupRun group_run_from(const std::vector<Message>& messages, int tp, int calls_per_step,
                        const nccl::MergedRun& merged, bool p2p_disabled);

}  // namespace p2p::infer
