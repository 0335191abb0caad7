// NCCL's chosen transport per pair beside the PCIe/NVLink class the topology module found for
// that pair: the one view that shows whether NCCL really used P2P where the hardware allows it,
// or fell back to shared memory through the host (as in a VFIO VM without a P2P clique).
#pragma once

#include <string>

#include "document/nccl_run.hpp"
#include "topology/snapshot.hpp"

namespace p2p::report {

// Ranks are matched to topology GPUs by PCI bus id (case-insensitive). Returns "" when the
// run has fewer than two ranks (there is no pair to show).
std::string format_transport_vs_topology(const doc::NcclRun& run,
                                         const topo::TopologySnapshot& topology);

}  // namespace p2p::report
