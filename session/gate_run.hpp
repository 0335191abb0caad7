// `p2pcheck gate` without its command line: the files read first (bad input fails fast and
// alone), the topology put together (a capture, or this host live, with the per-pair P2P status
// of an nvidia-smi topo -p2p capture), the decision and the exit code. CUDA-free: the live
// answer on peer access comes in from the caller (session/live_peer_access.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "topology/gate.hpp"
#include "topology/snapshot.hpp"

namespace p2p::session {

struct GateRequest {
  std::string input;    // hwloc XML, snapshot JSON or nvidia-smi topo -m capture; "" = this host
  std::string p2p;      // nvidia-smi topo -p2p capture: answers require_p2p for --input
  std::string expect;   // golden topology
  std::string policy;   // policy JSON
  int expect_gpus = 0;  // --expect-gpus: the policy's min_gpus, at least; 0 = not given
  std::vector<std::string> allow_env;  // --allow-env: variables accepted (gate_environment.hpp)
};

struct GateOutcome {
  topo::GateDecision decision;
  std::string source;  // the --input file, or "this host"
  std::size_t gpu_count = 0;
  topo::Environment environment;
  std::string host;   // the capture's host name, else this host's
  int exit_code = 0;  // 0 pass, 1 blocked
};

// InputError when there is nothing to check, --p2p comes without --input, or a file cannot be
// read. require_p2p is a live question: on this host `live_peer_access` answers it (empty: not
// asked); for a capture its --p2p file does, and without one it stays to be checked. On this host
// a GPU the doctor finds failing (NVML health, the kernel log) blocks with "health.gpu", and an
// environment under which the run cannot be about P2P with "env.p2p" (gate_environment.hpp).
GateOutcome run_gate(const GateRequest& r, const topo::PeerAccessCheck& live_peer_access = {});

}  // namespace p2p::session
