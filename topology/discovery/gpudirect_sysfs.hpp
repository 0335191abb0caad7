// Each GPU's virtual P2P approval capability (GPUDirect clique), read from its config space in
// sysfs. Inside a VFIO guest this is what tells the NVIDIA driver which GPUs are peers.
#pragma once

#include <string>
#include <vector>

#include "topology/gpudirect_capability.hpp"
#include "topology/snapshot.hpp"

namespace p2p::topo {

// <sys_root>/bus/pci/devices/<bus id>/config of each GPU (sys_root "/sys" on the live host), in
// the GPUs' order. A missing or unreadable file is state "unreadable", never "absent".
std::vector<GpudirectCapability> read_gpudirect_from_sysfs(const std::string& sys_root,
                                                           const std::vector<Gpu>& gpus);

}  // namespace p2p::topo
