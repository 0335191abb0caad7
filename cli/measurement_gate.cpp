#include "cli/measurement_gate.hpp"

#include <iostream>

#include "bench/inventory.hpp"
#include "bench/peer_access_check.hpp"
#include "cli/live_topology.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::cli {
namespace {

topo::TopologySnapshot measurement_topology(const std::string& command) {
  try {
    return live_topology();
  } catch (const std::exception& e) {
    std::cerr << "p2pcheck " << command << ": warning: topology discovery failed (" << e.what()
              << "); using CUDA's device list\n";
    return bench::snapshot_from_cuda(bench::discover_devices());
  }
}

}  // namespace

GateFiles read_gate_files(const MeasurementGateOptions& o) {
  GateFiles files;
  if (!o.expect.empty()) files.expected = topo::load_topology(o.expect);
  if (!o.policy.empty()) files.policy = topo::read_policy_file(o.policy);
  return files;
}

TopologyAndGate load_topology_and_gate(const std::string& command, const MeasurementGateOptions& o, const GateFiles& files) {
  TopologyAndGate out;
  out.snapshot = measurement_topology(command);
  const topo::GateDecision decision =
      topo::evaluate_gate(out.snapshot, files.expected, files.policy, bench::cuda_peer_access_check());
  out.blocked = !decision.passed && !o.skip_gate;
  out.gate.decision = decision.passed ? "pass" : "block";
  out.gate.reasons = decision;
  out.gate.detail = decision.passed ? "passed" : std::to_string(decision.blocking()) + " blocking reason(s)";
  if (!decision.passed && o.skip_gate) out.gate.detail += "; measured anyway (--skip-gate)";
  return out;
}

std::string blocked_message(const std::string& command, const TopologyAndGate& tg) {
  return topo::format_gate_text(tg.gate.reasons.get<topo::GateDecision>()) + "p2pcheck " + command +
         ": the gate blocked this host; nothing was measured (--skip-gate overrides, and is recorded)\n";
}

}  // namespace p2p::cli
