// What the benchmark knows about the host before it measures: the topology snapshot (links,
// NUMA, local CPUs), the CUDA devices with their peer-access matrix, and the GPUs selected.
// Plain data, so waivers, ceilings and result records are pure functions of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/placement.hpp"
#include "gpus/device_inventory.hpp"
#include "topology/snapshot.hpp"

namespace p2p::bench {

using gpus::DeviceInfo;
using gpus::DeviceInventory;
using gpus::normalize_pci_bus_id;

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

}  // namespace p2p::bench
