// The GPUs this process sees, as plain data: each CUDA device's identity and the
// peer-access matrix (cuda_devices.hpp asks CUDA for them), and a minimal topology snapshot
// built from them and sysfs for when no full topology discovery is supplied (link generation
// and width, NUMA node, local CPUs: what link ceilings and thread affinity need). Everything
// here but the CUDA query builds and is tested without CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::gpus {

struct DeviceInfo {
  int ordinal = -1;
  std::string pci_bus_id;  // normalised like the snapshot: "0000:00:06.0"
  std::string uuid;        // "GPU-…" (gpu_uuid_text of cudaDeviceProp::uuid)
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
};

struct DeviceInventory {
  std::vector<DeviceInfo> devices;                 // index = CUDA ordinal
  std::vector<std::vector<bool>> can_access_peer;  // [from][to]: cudaDeviceCanAccessPeer
};

// "00000000:1A:00.0" (CUDA, nvidia-smi) -> "0000:1a:00.0" (sysfs, hwloc, the snapshot).
std::string normalize_pci_bus_id(const std::string& id);

// One topo::Gpu per device, sorted by PCI bus id; source "cuda".
topo::TopologySnapshot snapshot_from_cuda(const DeviceInventory& inventory,
                                          const std::string& sysfs_root = "/sys");

// Fills link_current/link_max, numa_node and cpuset of `gpu` from
// <sysfs_root>/bus/pci/devices/<pci_bus_id>/; leaves a field alone where its file is missing.
void read_sysfs_pci_facts(topo::Gpu& gpu, const std::string& sysfs_root);

// "580.159.04" from /sys/module/nvidia/version; "" when not readable.
std::string nvidia_driver_version();

}  // namespace p2p::gpus
