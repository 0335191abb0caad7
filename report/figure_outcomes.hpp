// What a verdict said of each figure, for the pages to mark it: a heatmap cell is painted by the
// outcome of the checks that name its figure (fail, warn, pass), not by how much of the link it
// reached, so a failing NODE pair at 43% never looks milder than a SYS pair that only warns at
// 36%. Pure: the verdict's checks are all it reads.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "document/verdict.hpp"

namespace p2p::report {

struct FigureJudgement {
  doc::Outcome outcome = doc::Outcome::kPass;  // kFail (errors too), kWarn or kPass
  std::string reason;  // the worst check's rule and message; "" when it passed
};

class FigureOutcomes {
 public:
  FigureOutcomes() = default;
  explicit FigureOutcomes(const doc::RunVerdict& v);
  // The worst outcome of the checks naming `key` (doc::figure_key); nullopt when no check judged
  // it (too small to judge, or a figure no rule reads). Skipped checks do not count.
  std::optional<FigureJudgement> of(const std::string& key) const;

 private:
  std::map<std::string, FigureJudgement> by_key_;
};

}  // namespace p2p::report
