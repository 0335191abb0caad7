// How one figure is graded against a rule's bounds, and the words its check says. Shared by
// every rule file so each rule is only what it compares.
#pragma once

#include <string>

#include "acceptance/policy.hpp"
#include "document/verdict.hpp"

namespace p2p::accept {

// Priorities of the rules among reasons of one outcome (document/verdict.hpp): what makes a
// run untrustworthy first, then what is wrong with the links, then what only looks odd.
namespace priority {
constexpr int kVerification = 10;
constexpr int kGpuCount = 20;
constexpr int kInterrupted = 30;
constexpr int kShared = 40;
constexpr int kGate = 50;
constexpr int kHang = 55;
constexpr int kError = 60;
constexpr int kFloor = 70;
constexpr int kP2pAvailable = 65;
constexpr int kP2pInEffect = 66;
constexpr int kModelReference = 95;
constexpr int kP2pVsStaged = 80;
constexpr int kP2pLatency = 85;
constexpr int kLinkCeiling = 90;
constexpr int kOutlier = 100;
constexpr int kBidirectional = 110;
constexpr int kSymmetry = 120;
constexpr int kLatencyOutlier = 130;
constexpr int kSpread = 140;
constexpr int kThreshold = 75;
}  // namespace priority

// More is better: below fail fails, below warn warns.
doc::Outcome grade_at_least(double value, const Bounds& b);
// More is worse: above fail fails, above warn warns.
doc::Outcome grade_at_most(double value, const Bounds& b);

// "54.2 GB/s", "0.78x", "84%", "1.23 us".
std::string gbps(double v);
std::string ratio(double v);
std::string percent(double fraction);
std::string micros(double ns);

// "; warn below 0.85x, fail below 0.70x" for the bounds of a rule, in the unit `show` writes.
template <class Show>
std::string bounds_text(const Bounds& b, bool at_least, Show show) {
  const char* word = at_least ? " below " : " above ";
  return std::string("; warn") + word + show(b.warn) + ", fail" + word + show(b.fail);
}

// The basis (document/verdict.hpp) a rule's checks rest on unless the rule says otherwise:
// "measured" for ratios and outliers among the run's own figures, "policy" for its thresholds
// and floors, "topology" for link ceilings, "model" for the knowledge base's references, "run"
// for the run's own facts.
std::string basis_of_rule(const std::string& rule);

// A check of `rule`, with the rule's basis.
doc::Check make_check(const std::string& rule, const std::string& subject, doc::Outcome o,
                      const std::string& message, int priority);

}  // namespace p2p::accept
