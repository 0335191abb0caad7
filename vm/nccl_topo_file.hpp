// The NCCL topology file (NCCL_TOPO_FILE) a VM's guest needs: NCCL in the guest sees the
// hypervisor's emulated PCIe tree (every GPU on a root port of one host bridge) and plans its
// rings and P2P from that. This file describes the host's real tree instead: one <cpu> per host
// NUMA node, one <pci> per PCIe switch (its upstream port, as NCCL itself records switches), and
// each GPU under them with the bus id it has in the guest, which is how NCCL finds it. Bridges get
// bus ids in PCI domain ffff, which no guest has, so NCCL reads nothing of the guest's for them.
// Format: NCCL's own reader (src/graph/xml.cc): no prolog, no tabs, one line per element.
// Pure.
#pragma once

#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::vm {

// The VM's GPUs (host topology indexes) and, in the same order, their bus ids in the guest.
// InputError for a count that differs, a guest bus id that is not one or is given twice, a host
// topology without bus ids (an nvidia-smi capture: no tree to describe), more elements than
// NCCL's reader takes (256).
std::string nccl_topology_xml(const topo::TopologySnapshot& host,
                              const std::vector<std::size_t>& gpus,
                              const std::vector<std::string>& guest_bus_ids);

// How the guest takes it: where to put the file, the variable to set, and the NCCL_P2P_LEVEL the
// cliques' paths need where they run above NCCL's default (PXB since NCCL 2.23).
std::vector<std::string> nccl_topology_install(const topo::TopologySnapshot& host,
                                               const std::vector<std::vector<std::size_t>>& cliques,
                                               const std::string& file);

}  // namespace p2p::vm
