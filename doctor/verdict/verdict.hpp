// The verdict: from the facts and the findings, rank the root causes so that the most likely one
// comes first (not merely the first failed check), say what was ruled out and why, and list
// what could not be seen from where the doctor ran. Pure.
#pragma once

#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

Verdict conclude(const Facts& f, const std::vector<Finding>& findings);

// Candidate causes, unranked (verdict_causes.cpp and the verdict_*_causes.cpp of each family).
// Exposed for tests of single causes.
std::vector<Cause> candidate_causes(const Facts& f, const std::vector<Finding>& findings);

// A cause with its confidence from its score (each family's verdict_*_causes.cpp weighs them).
Cause make_cause(std::string id, std::string title, int score, std::vector<std::string> evidence,
                 std::string fix, std::vector<std::string> gpus = {});

// The finding with this id, or nullptr.
const Finding* find_finding(const std::vector<Finding>& findings, const std::string& id);

}  // namespace p2p::doctor
