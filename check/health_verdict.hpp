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
  std::string name;   // doctor | topo | gpus | gate
  int exit_code = 0;  // 0 ok, 1 a verdict against the host
  std::string line;   // one line: what the step found
  // For --brief: the failed check's id and what to do first ("gpu.xid: power the node off and
  // on, ..."); "" takes `line`.
  std::string brief;
};

// The GPU count against --expect-gpus: "gpus: 8 as expected", "gpus: 7 of the 8 expected: a GPU
// is missing (fell off the bus, unbound, or not passed through)", "gpus: any count (no
// --expect-gpus given)" where `expected` is 0.
HealthStep gpu_count_step(std::size_t seen, std::size_t expected);

// The longest --brief line: node-problem-detector's and Slurm's reasons keep 200 characters or
// fewer, and a reason cut there must still say what failed and what to do.
constexpr std::size_t kMaxBriefLine = 199;

// "p2pcheck check: FAIL — <host>: <brief of the first failed step>", at most kMaxBriefLine
// bytes (cut at a UTF-8 boundary, ending in "..."); "p2pcheck check: PASS — <host>" when healthy.
std::string brief_line(const std::vector<HealthStep>& steps, const std::string& host);

// "doctor: <headline>", plus " (N failed, first <id>: <summary>)" when a check failed.
std::string doctor_step_line(const std::string& headline,
                             const std::vector<doctor::Finding>& findings);
// "doctor <id>: <hint>" of the first failed finding, else "doctor: <headline>".
std::string doctor_step_brief(const std::string& headline,
                              const std::vector<doctor::Finding>& findings);

// "gate: pass", or "gate: BLOCKED (N blocking, first <rule>: <message>)".
std::string gate_step_line(const topo::GateDecision& d);

// The worst step's exit code (0 with no steps).
int worst_exit_code(const std::vector<HealthStep>& steps);

// "p2pcheck check: PASS — <host>", or "... FAIL — <host>; <line of each failed step>".
std::string verdict_line(const std::vector<HealthStep>& steps, const std::string& host);

}  // namespace p2p::ci
