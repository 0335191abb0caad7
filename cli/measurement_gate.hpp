// The gate in front of every measuring subcommand (bench, nccl): the same options, the files
// read before any GPU is touched (a bad file exits 2 whatever the host), the live topology the
// gate judges, and the record of its decision that goes into the results document.
#pragma once

#include <optional>
#include <string>

#include "bench/results.hpp"
#include "cli/gate_options.hpp"
#include "topology/gate.hpp"
#include "topology/policy.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cli {

struct GateFiles {
  std::optional<topo::TopologySnapshot> expected;
  std::optional<topo::GatePolicy> policy;
};

GateFiles read_gate_files(const MeasurementGateOptions& o);

struct TopologyAndGate {
  topo::TopologySnapshot snapshot;
  bench::GateRecord gate;
  bool blocked = false;  // the gate blocked and --skip-gate was not given
};

// The live topology (or CUDA's device list where discovery fails, with a warning naming
// `command`), judged by the gate. A block with --skip-gate is recorded, not enforced.
TopologyAndGate load_topology_and_gate(const std::string& command, const MeasurementGateOptions& o, const GateFiles& files);

// The gate's reasons and the line saying nothing was measured, for stderr.
std::string blocked_message(const std::string& command, const TopologyAndGate& tg);

}  // namespace p2p::cli
