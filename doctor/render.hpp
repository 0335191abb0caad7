// The doctor's verdict rendered: a checklist for people, JSON for machines (the schema
// p2pcheck.doctor.report that export, JUnit and the JSON lines read).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

// One line per check ("✔ id  summary"), hints indented under anything not passing, then the
// verdict: the headline, ranked causes with evidence and fix, ruled-out lines, unverified checks.
std::string render_verdict_text(const Facts& f, const std::vector<Finding>& findings,
                                const Verdict& v);

// {"schema": "p2pcheck.doctor.report", "version": 1, "source", "exit_code", "findings", "verdict"}
nlohmann::json render_verdict_json(const Facts& f, const std::vector<Finding>& findings,
                                   const Verdict& v);

// "✔", "⚠", "✘", "–" (skip), "?" (unknown).
const char* status_symbol(Status s);

}  // namespace p2p::doctor
