// The PCIe path classifier: a pure function of the snapshot, so a live host, an lstopo XML
// capture and a saved snapshot all classify the same way.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::topo {

// The class of the PCIe path between GPUs a and b (indexes into t.gpus), from the host bridge,
// the bridge chain and the NUMA node of each GPU. NVLink is not considered here.
//   PIX  the lowest common ancestor is a PCI bridge and neither GPU sits more than one bridge
//        below it: both hang off downstream ports of one switch (or share one bridge's bus);
//   PXB  the lowest common ancestor is a PCI bridge, deeper chains: several switches;
//   PHB  the only thing they share is their host bridge;
//   NODE different host bridges, same NUMA node;
//   SYS  different NUMA nodes. A GPU whose host bridge or NUMA node is unknown is treated as
//        the worse case (different host bridge; SYS unless both NUMA nodes are known and equal).
PathClass classify_pcie_path(const TopologySnapshot& t, std::size_t a, std::size_t b);

// N x N matrix of classify_pcie_path, kSelf on the diagonal.
std::vector<std::vector<PathClass>> compute_pcie_matrix(const TopologySnapshot& t);

// Fills t.pcie_matrix, and sizes t.nvlink_count to N x N (zeros) where it is not already.
void classify_snapshot(TopologySnapshot& t);

// What `nvidia-smi topo -m` would print for the pair: "NV<n>" where NVLink joins it, else the
// PCIe class ("X" on the diagonal).
std::string matrix_label(const TopologySnapshot& t, std::size_t a, std::size_t b);
std::vector<std::vector<std::string>> display_matrix(const TopologySnapshot& t);

// Best (0, NVLink) to worst (5, SYS); kSelf is -1. Used by the gate's max_path.
int path_rank(PathClass c);

}  // namespace p2p::topo
