// What the benchmark knows about the host before it measures: the topology snapshot (links,
// NUMA, local CPUs), the CUDA devices with their peer-access matrix, and the GPUs selected.
// Plain data, so waivers, ceilings and result records are pure functions of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/placement.hpp"
#include "topology/snapshot.hpp"

namespace p2p::bench {

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

// GPUs are named by id: the CUDA ordinal, or the logical GPU id when logical GPUs are placed
// (see placement.hpp); every lookup below goes through the placement to the device.
struct BenchContext {
  topo::TopologySnapshot topology;  // always the physical host's
  DeviceInventory inventory;
  GpuPlacement placement;
  std::vector<int> gpus;  // the GPU ids measured, ascending

  // The snapshot's entry for a GPU's device, matched by PCI bus id; nullptr if absent.
  const topo::Gpu* topology_gpu(int gpu) const;
  // cudaDeviceCanAccessPeer between the GPUs' devices; true between two logical GPUs of one
  // device (its own memory); false for unknown GPUs or from == to.
  bool peer_access(int from, int to) const;
  // NVLink links between two GPUs according to the snapshot (0 when unknown or one device).
  int nvlink_links(int a, int b) const;
  // The device a GPU runs on; nullptr for an unknown GPU.
  const DeviceInfo* device(int gpu) const;
};

// "00000000:1A:00.0" (CUDA, nvidia-smi) -> "0000:1a:00.0" (sysfs, hwloc, the snapshot).
std::string normalize_pci_bus_id(const std::string& id);

}  // namespace p2p::bench
