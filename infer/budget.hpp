// --budget-us-per-token: the all-reduce time one generated token may cost, for every decode
// batch ("40") or per batch ("1:20,32:40,256:90"), judged on the recommended group of every TP
// size. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "infer/plan.hpp"
#include "infer/ranking.hpp"
#include "infer/results.hpp"

namespace p2p::infer {

struct Budget {
  std::optional<double> all_us;                  // every decode batch without its own figure
  std::map<std::uint64_t, double> per_batch_us;  // batch -> microseconds
};

// "40", "1:20,32:40" or both ("60,1:20": 20 us at batch 1, 60 at every other). InputError for
// anything else, a figure that is not positive, or a batch the plan does not have.
Budget parse_budget(const std::string& text, const InferPlan& plan);

// The budget of one decode batch, if any.
std::optional<double> budget_for(const Budget& b, std::uint64_t batch);

using doc::BudgetVerdict;  // document/infer_records.hpp

// One verdict per TP size and budgeted decode batch, for the recommended group.
std::vector<BudgetVerdict> judge_budget(const Budget& budget, const InferPlan& plan,
                                        const std::vector<TpRanking>& rankings,
                                        const std::vector<GroupResult>& groups);

bool any_failed(const std::vector<BudgetVerdict>& verdicts);

}  // namespace p2p::infer
