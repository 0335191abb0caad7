// Reads a loaded hwloc topology into the snapshot model: the NVIDIA GPUs, their bridge chains,
// locality, link and name, and the NVLink counts. Classification is left to the caller.
#pragma once

#include "topology/discovery/hwloc_topology.hpp"
#include "topology/snapshot.hpp"

namespace p2p::topo {

// GPUs are NVIDIA (vendor 0x10de) VGA or 3D controllers (class 0x0300, 0x0302), sorted by PCI
// bus id. link_current comes from hwloc's pci_link_speed; link_max is left empty (hwloc does
// not record it). Zero GPUs is not an error here.
TopologySnapshot snapshot_from_hwloc(const HwlocTopology& topology);

}  // namespace p2p::topo
