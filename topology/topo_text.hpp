// The text `p2pcheck topo` prints: a GPU list, a matrix in the shape of `nvidia-smi topo -m`
// (GPU columns, then CPU and NUMA affinity), the legend and the environment line.
#pragma once

#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

std::string format_topology_text(const TopologySnapshot& t);

// "vm (hypervisor KVM; NVML virtualization Pass-Through) [evidence: ...]".
std::string describe_environment(const Environment& e);

}  // namespace p2p::topo
