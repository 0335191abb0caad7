#include "report/figure_outcomes.hpp"

namespace p2p::report {

FigureOutcomes::FigureOutcomes(const doc::RunVerdict& v) {
  for (const auto& c : v.checks) {
    if (c.outcome == doc::Outcome::kSkipped || c.outcome == doc::Outcome::kNotMeaningful) continue;
    // A check that could not be made marks its figure as failing: the page must not paint it
    // as good.
    const doc::Outcome o = c.outcome == doc::Outcome::kError ? doc::Outcome::kFail : c.outcome;
    auto [it, fresh] = by_key_.try_emplace(c.subject, FigureJudgement{o, ""});
    if (!fresh && doc::severity(o) <= doc::severity(it->second.outcome)) continue;
    it->second.outcome = o;
    it->second.reason = o == doc::Outcome::kPass ? "" : c.rule + ": " + c.message;
  }
}

std::optional<FigureJudgement> FigureOutcomes::of(const std::string& key) const {
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
}

}  // namespace p2p::report
