// The CUDA side of the context: devices, their properties and the peer-access matrix, plus a
// minimal topology snapshot built from CUDA and sysfs for when no full topology discovery is
// supplied (link generation/width, NUMA node, local CPUs: what ceilings and affinity need).
#pragma once

#include <string>

#include "bench/measure/context.hpp"
#include "topology/snapshot.hpp"

namespace p2p::bench {

// Every visible CUDA device (ordinal order) and cudaDeviceCanAccessPeer for every pair.
DeviceInventory discover_devices();

// One topo::Gpu per device, sorted by PCI bus id; source "cuda".
topo::TopologySnapshot snapshot_from_cuda(const DeviceInventory& inventory,
                                          const std::string& sysfs_root = "/sys");

// Fills link_current/link_max, numa_node and cpuset of `gpu` from
// <sysfs_root>/bus/pci/devices/<pci_bus_id>/; leaves a field alone where its file is missing.
void read_sysfs_pci_facts(topo::Gpu& gpu, const std::string& sysfs_root);

// "580.159.04" from /sys/module/nvidia/version; "" when not readable.
std::string nvidia_driver_version();
// "13.0" from an encoded CUDA version such as 13000.
std::string cuda_version_text(int encoded);

}  // namespace p2p::bench
