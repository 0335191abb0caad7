#include "check/health_verdict.hpp"

#include <algorithm>

#include "common/exit_codes.hpp"

namespace p2p::ci {

std::string doctor_step_line(const std::string& headline,
                             const std::vector<doctor::Finding>& findings) {
  std::string line = "doctor: " + headline;
  int failed = 0;
  std::string first;
  for (const auto& f : findings) {
    if (f.status != doctor::Status::kFail) continue;
    if (failed++ == 0) first = f.id + ": " + f.summary;
  }
  if (failed > 0) line += " (" + std::to_string(failed) + " failed, first " + first + ")";
  return line;
}

std::string gate_step_line(const topo::GateDecision& d) {
  std::string line = d.passed ? "gate: pass" : "gate: BLOCKED";
  for (const auto& r : d.reasons) {
    if (r.verdict == topo::GateVerdict::kBlock) {
      line += " (" + std::to_string(d.blocking()) + " blocking, first " + r.rule + ": " +
              r.message + ")";
      break;
    }
  }
  return line;
}

int worst_exit_code(const std::vector<HealthStep>& steps) {
  int code = kExitOk;
  for (const auto& s : steps) code = std::max(code, s.exit_code);
  return code;
}

std::string verdict_line(const std::vector<HealthStep>& steps, const std::string& host) {
  std::string verdict = std::string("p2pcheck check: ") +
                        (worst_exit_code(steps) == kExitOk ? "OK" : "FAIL") + " on " + host;
  for (const auto& s : steps) {
    if (s.exit_code != kExitOk) verdict += "; " + s.line;
  }
  return verdict;
}

}  // namespace p2p::ci
