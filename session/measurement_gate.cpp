#include "session/measurement_gate.hpp"

#include <iostream>

#include "bench/measure/peer_access_check.hpp"
#include "doctor/collect/live_topology.hpp"
#include "gpus/cuda_devices.hpp"
#include "session/gate_environment.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::session {
namespace {

topo::TopologySnapshot measurement_topology(const std::string& command) {
  try {
    return doctor::live_topology();
  } catch (const std::exception& e) {
    std::cerr << "p2pcheck " << command << ": warning: topology discovery failed (" << e.what()
              << "); using CUDA's device list\n";
    return gpus::snapshot_from_cuda(gpus::discover_devices());
  }
}

}  // namespace

TopologyAndGate load_topology_and_gate(const std::string& command, const MeasurementGateOptions& o,
                                       const GateFiles& files) {
  for (const auto& v : o.allow_env) check_allowed_variable(v);
  return judge_gate(measurement_topology(command), files, bench::cuda_peer_access_check(),
                    o.skip_gate, acceptance_environment(), o.allow_env);
}

}  // namespace p2p::session
