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

std::string doctor_step_brief(const std::string& headline,
                              const std::vector<doctor::Finding>& findings) {
  for (const auto& f : findings)
    if (f.status == doctor::Status::kFail)
      return "doctor " + f.id + ": " + (f.hint.empty() ? f.summary : f.hint);
  return "doctor: " + headline;
}

HealthStep gpu_count_step(std::size_t seen, std::size_t expected) {
  const std::string n = std::to_string(seen);
  if (expected == 0)
    return HealthStep{"gpus", kExitOk, "gpus: " + n + ", any count (no --expect-gpus given)", ""};
  if (seen == expected) return HealthStep{"gpus", kExitOk, "gpus: " + n + " as expected", ""};
  const std::string e = std::to_string(expected);
  const std::string line =
      seen < expected ? "gpus: " + n + " of the " + e +
                            " expected: a GPU is missing (fallen off the bus, unbound from the "
                            "driver, or not passed through)"
                      : "gpus: " + n + ", more than the " + e + " expected";
  return HealthStep{"gpus", kExitFailed, line,
                    "gpus: " + n + " of " + e + " expected: run p2pcheck doctor on the node"};
}

std::string brief_line(const std::vector<HealthStep>& steps, const std::string& host) {
  std::string line = std::string("p2pcheck check: ") +
                     (worst_exit_code(steps) == kExitOk ? "PASS" : "FAIL") + " — " + host;
  for (const auto& s : steps) {
    if (s.exit_code == kExitOk) continue;
    line += ": " + (s.brief.empty() ? s.line : s.brief);
    break;
  }
  if (line.size() <= kMaxBriefLine) return line;
  std::size_t cut = kMaxBriefLine - 3;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + "...";
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
                        (worst_exit_code(steps) == kExitOk ? "PASS" : "FAIL") + " — " + host;
  for (const auto& s : steps) {
    if (s.exit_code != kExitOk) verdict += "; " + s.line;
  }
  return verdict;
}

}  // namespace p2p::ci
