// The health check's verdict from its steps, as schedulers and monitoring read it: the worst
// step's exit code, one line per step and one verdict line naming every failed step. Pure
// functions of data, so the wording is tested without a host.
#pragma once

#include <string>
#include <vector>

#include "doctor/finding.hpp"
#include "topology/gate.hpp"

namespace p2p::ci {

struct HealthStep {
  std::string name;   // doctor | topo | gate
  int exit_code = 0;  // 0 ok, 1 a verdict against the host
  std::string line;   // one line: what the step found
};

// "doctor: <headline>", plus " (N failed, first <id>: <summary>)" when a check failed.
std::string doctor_step_line(const std::string& headline,
                             const std::vector<doctor::Finding>& findings);

// "gate: pass", or "gate: BLOCKED (N blocking, first <rule>: <message>)".
std::string gate_step_line(const topo::GateDecision& d);

// The worst step's exit code (0 with no steps).
int worst_exit_code(const std::vector<HealthStep>& steps);

// "p2pcheck check: OK on <host>", or "... FAIL on <host>; <line of each failed step>".
std::string verdict_line(const std::vector<HealthStep>& steps, const std::string& host);

}  // namespace p2p::ci
