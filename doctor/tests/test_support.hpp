// Shared helpers for the doctor tests: fixture paths, judging a fixture, finding lookups.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/verdict/verdict.hpp"

namespace p2p::doctor {

// A failed expectation names the word ("crashed"), not the enum's bytes.
inline void PrintTo(ProbeStatus s, std::ostream* os) { *os << to_string(s); }
inline void PrintTo(CopyResult r, std::ostream* os) { *os << to_string(r); }
inline void PrintTo(PeerCopyMode m, std::ostream* os) { *os << '"' << to_string(m) << '"'; }
inline void PrintTo(VerdictState s, std::ostream* os) { *os << to_string(s); }

}  // namespace p2p::doctor

namespace p2p::doctor::test {

inline std::string fixture_dir() { return std::string(P2P_SOURCE_DIR) + "/doctor/tests/fixtures"; }
inline std::string fixture(const std::string& name) { return fixture_dir() + "/" + name; }

struct Judged {
  Facts facts;
  std::vector<Finding> findings;
  Verdict verdict;

  const Finding& at(const std::string& id) const {
    for (const auto& f : findings)
      if (f.id == id) return f;
    ADD_FAILURE() << "no finding " << id;
    static const Finding none{};
    return none;
  }
  Status status(const std::string& id) const { return at(id).status; }
  bool has_cause(const std::string& id) const {
    for (const auto& c : verdict.causes)
      if (c.id == id) return true;
    return false;
  }
  std::size_t cause_rank(const std::string& id) const {
    for (std::size_t i = 0; i < verdict.causes.size(); ++i)
      if (verdict.causes[i].id == id) return i;
    return verdict.causes.size();
  }
  bool ruled_out_starts_with(const std::string& prefix) const {
    for (const auto& r : verdict.ruled_out)
      if (r.rfind(prefix, 0) == 0) return true;
    return false;
  }
};

inline Judged judge_facts(Facts f) {
  Judged j;
  j.facts = std::move(f);
  j.findings = judge(j.facts);
  j.verdict = conclude(j.facts, j.findings);
  return j;
}

inline Judged judge_fixture(const std::string& name) {
  return judge_facts(load_facts_file(fixture(name)));
}

// The top-ranked cause of a verdict; a verdict without one fails the test that asks.
inline const Cause& top(const Judged& j) {
  if (j.verdict.causes.empty()) ADD_FAILURE() << "no cause: " << j.verdict.headline;
  static const Cause none{};
  return j.verdict.causes.empty() ? none : j.verdict.causes.front();
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace p2p::doctor::test
