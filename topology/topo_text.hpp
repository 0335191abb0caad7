// The text `p2pcheck topo` prints: a GPU list, a matrix in the shape of `nvidia-smi topo -m`
// (GPU columns, then CPU and NUMA affinity), the legend and the environment line.
#pragma once

#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

std::string format_topology_text(const TopologySnapshot& t);

// The lines on each GPU's GPUDirect clique (part of format_topology_text): shown in a VM, or
// wherever a GPU carries the capability; "" when it was not read.
std::string gpudirect_text(const TopologySnapshot& t);

// "vm (hypervisor KVM; NVML virtualization Pass-Through) [evidence: ...]".
std::string describe_environment(const Environment& e);

}  // namespace p2p::topo
