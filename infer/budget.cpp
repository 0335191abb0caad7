#include "infer/budget.hpp"

#include <cmath>
#include <cstdio>

#include "common/error.hpp"

namespace p2p::infer {

namespace {

double positive_number(const std::string& text, const std::string& where) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v) || v <= 0) {
    throw InputError("--budget-us-per-token: " + where + "`" + text +
                     "` is not a positive number of microseconds");
  }
  return v;
}

bool plan_has_batch(const InferPlan& plan, std::uint64_t batch) {
  for (const Message& m : plan.messages) {
    if (m.phase == Phase::kDecode && m.tokens == batch) return true;
  }
  return false;
}

std::string us(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", v);
  return buf;
}

}  // namespace

Budget parse_budget(const std::string& text, const InferPlan& plan) {
  Budget b;
  std::size_t start = 0;
  if (text.empty()) throw InputError("--budget-us-per-token: empty");
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) {
      if (b.all_us) throw InputError("--budget-us-per-token: more than one figure for every batch");
      b.all_us = positive_number(item, "");
    } else {
      const std::string batch_text = item.substr(0, colon);
      std::size_t used = 0;
      unsigned long long batch = 0;
      try {
        batch = std::stoull(batch_text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != batch_text.size() || batch_text[0] == '-') {
        throw InputError("--budget-us-per-token: `" + batch_text +
                         "` is not a batch size (BATCH:US)");
      }
      if (!plan_has_batch(plan, batch)) {
        throw InputError("--budget-us-per-token: batch " + batch_text +
                         " is not one of the --batch sizes");
      }
      b.per_batch_us[batch] = positive_number(item.substr(colon + 1), "batch " + batch_text + ": ");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return b;
}

std::optional<double> budget_for(const Budget& b, std::uint64_t batch) {
  const auto it = b.per_batch_us.find(batch);
  if (it != b.per_batch_us.end()) return it->second;
  return b.all_us;
}

std::vector<BudgetVerdict> judge_budget(const Budget& budget, const InferPlan& plan,
                                        const std::vector<TpRanking>& rankings,
                                        const std::vector<GroupResult>& groups) {
  std::vector<BudgetVerdict> out;
  for (const TpRanking& r : rankings) {
    const std::optional<RankedGroup> best = recommended(r);
    for (const Message& m : plan.messages) {
      if (m.phase != Phase::kDecode) continue;
      const std::optional<double> limit = budget_for(budget, m.tokens);
      if (!limit) continue;
      BudgetVerdict v;
      v.tp = r.tp;
      v.message = message_name(m);
      v.budget_us = *limit;
      if (!best) {
        v.detail = "no group measured" + (r.note.empty() ? std::string() : ": " + r.note);
        out.push_back(v);
        continue;
      }
      const GroupResult& g = groups.at(best->group);
      v.gpus = g.gpus;
      const MessageResult* on = find_message(g.p2p_on, v.message);
      if (on == nullptr || on->status != doc::MessageStatus::kOk || !on->step_us) {
        v.detail = "not measured" +
                   (on != nullptr && !on->detail.empty() ? ": " + on->detail : std::string());
      } else {
        v.us_per_token = on->step_us;
        v.pass = *on->step_us <= *limit;
        v.detail = us(*on->step_us) + (v.pass ? " <= " : " > ") + us(*limit);
      }
      out.push_back(v);
    }
  }
  return out;
}

bool any_failed(const std::vector<BudgetVerdict>& verdicts) {
  for (const auto& v : verdicts) {
    if (!v.pass) return true;
  }
  return false;
}

}  // namespace p2p::infer
