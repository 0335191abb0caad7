#include "session/gate_verdict.hpp"

#include <algorithm>
#include <utility>

#include "acceptance/policy_file.hpp"
#include "session/gate_environment.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::session {

namespace {
void read_policy(GateFiles& files, const std::string& path, int expect_gpus) {
  if (!path.empty()) {
    accept::PolicyFile p = accept::read_policy_file(path);
    files.policy = p.gate;
    files.acceptance = std::move(p.acceptance);
  }
  if (expect_gpus > 0) {
    if (!files.policy) files.policy = topo::GatePolicy{};
    files.policy->min_gpus = std::max(files.policy->min_gpus.value_or(0), expect_gpus);
  }
}
}  // namespace

GateFiles read_gate_files(const MeasurementGateOptions& o) {
  GateFiles files;
  if (!o.expect.empty()) files.expected = topo::load_topology(o.expect);
  read_policy(files, o.policy, o.expect_gpus);
  return files;
}

GateFiles read_policy_and_golden(const std::string& policy, const std::string& expect,
                                 int expect_gpus) {
  GateFiles files;
  read_policy(files, policy, expect_gpus);
  if (!expect.empty()) {
    files.expected = topo::load_topology(expect);
    files.expected->source = expect;
  }
  return files;
}

TopologyAndGate judge_gate(topo::TopologySnapshot snapshot, const GateFiles& files,
                           const topo::PeerAccessCheck& peer_access, bool skip_gate,
                           const std::map<std::string, std::string>& env,
                           const std::vector<std::string>& allow_env) {
  TopologyAndGate out;
  out.snapshot = std::move(snapshot);
  topo::GateDecision decision =
      topo::evaluate_gate(out.snapshot, files.expected, files.policy, peer_access);
  judge_environment(decision, p2p_environment_risks(env, out.snapshot.gpus.size()), allow_env);
  out.blocked = !decision.passed && !skip_gate;
  out.gate = gate_record(decision, skip_gate);
  return out;
}

doc::GateRecord gate_record(const topo::GateDecision& decision, bool skip_gate) {
  doc::GateRecord record;
  record.decision = decision.passed ? topo::GateVerdict::kPass : topo::GateVerdict::kBlock;
  record.reasons = decision;
  record.detail =
      decision.passed ? "passed" : std::to_string(decision.blocking()) + " blocking reason(s)";
  if (!decision.passed && skip_gate) record.detail += "; measured anyway (--skip-gate)";
  return record;
}

std::string blocked_message(const std::string& command, const TopologyAndGate& tg) {
  std::string last = topo::gate_verdict_line(*tg.gate.reasons, command);
  last.pop_back();  // its newline: what was not done goes on the same line
  return topo::format_gate_text(*tg.gate.reasons) + last +
         "; nothing was measured (--skip-gate overrides, and is recorded)\n";
}

}  // namespace p2p::session
