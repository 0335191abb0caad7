// What every measuring subcommand (bench, nccl) is asked besides its own sweep: the gate in
// front of it, how long cuInit may take, and whether another user of the GPUs refuses the run.
// Plain data: cli/ declares the options that fill it, session/ acts on it.
#pragma once

#include <string>
#include <vector>

namespace p2p::session {

struct MeasurementGateOptions {
  bool skip_gate = false;
  std::string expect;  // golden topology (hwloc XML or snapshot)
  std::string policy;  // policy JSON: the gate's keys and the acceptance thresholds
  // The GPUs this host must show; fewer fails the run's verdict. 0: not given.
  int expect_gpus = 0;
  // --allow-env: variables under which the run may measure though it cannot be about P2P
  // (gate_environment.hpp); without it such a variable blocks the gate.
  std::vector<std::string> allow_env;
};

// Seconds the cuInit preflight child may take; the doctor allows its probes as long.
constexpr double kDefaultInitTimeoutS = 45.0;

}  // namespace p2p::session
