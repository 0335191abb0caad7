// `p2pcheck topo` without its command line: the snapshot put together (a capture, or this host
// live, with the environment facts and the per-pair P2P status recorded beside a capture) and
// saved where asked; `topo diff`: two topologies compared, with the gate's verdict on the first
// when the second is its golden topology.
#pragma once

#include <string>

#include "topology/diff.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot.hpp"
#include "vm/guest_prospects.hpp"

namespace p2p::session {

struct TopoRequest {
  std::string input;  // hwloc XML, snapshot JSON or nvidia-smi topo -m capture; "" = this host
  std::string p2p;    // nvidia-smi topo -p2p capture to add to the snapshot
  std::string environment;  // EnvironmentFacts JSON recorded where the capture was taken
  std::string save;         // write the snapshot JSON here, atomically ("" = no)
};

struct TopoOutcome {
  topo::TopologySnapshot snapshot;
  std::string snapshot_json;  // as saved, and as --format json prints it
  // Live only: NCCL_TOPO_FILE (environment or /etc/nccl.conf) against the GPUs here, one line;
  // "" where nothing applies.
  std::string nccl_topo_file;
};

// InputError naming a file that cannot be read. The snapshot is saved before anything is
// printed: a failed save leaves neither a partial file nor output that looks like success.
TopoOutcome run_topo(const TopoRequest& r);

struct TopoDiffOutcome {
  topo::TopologyDiff diff;
  topo::GateDecision gate;  // what `gate --input BEFORE --expect AFTER` decides
  int exit_code = 0;        // 0 same topology, 1 different
  // A VFIO guest beside its host: which pairs GPUDirect cliques can give P2P back (vm/).
  vm::Prospects prospects;
};

TopoDiffOutcome run_topo_diff(const std::string& before_path, const std::string& after_path);

}  // namespace p2p::session
