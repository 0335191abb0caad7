// The gate on this host, as bench and nccl run it before measuring: the live topology (or
// CUDA's device list where discovery fails) judged by session/gate_verdict.hpp, with CUDA's
// own answer on peer access. Builds with CUDA only.
#pragma once

#include <string>

#include "session/gate_verdict.hpp"
#include "session/measurement_options.hpp"

namespace p2p::session {

// The live topology (or CUDA's device list where discovery fails, with a warning naming
// `command`), judged by the gate. A block with --skip-gate is recorded, not enforced.
TopologyAndGate load_topology_and_gate(const std::string& command, const MeasurementGateOptions& o,
                                       const GateFiles& files);

}  // namespace p2p::session
