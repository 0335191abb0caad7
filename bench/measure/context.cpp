#include "bench/measure/context.hpp"

#include <cctype>

namespace p2p::bench {

const DeviceInfo* BenchContext::device(int gpu) const {
  if (gpu < 0 ||
      (placement.logical() && static_cast<std::size_t>(gpu) >= placement.device_of.size())) {
    return nullptr;
  }
  const int ordinal = placement.device(gpu);
  if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= inventory.devices.size()) return nullptr;
  return &inventory.devices[static_cast<std::size_t>(ordinal)];
}

const topo::Gpu* BenchContext::topology_gpu(int gpu) const {
  const DeviceInfo* d = device(gpu);
  if (d == nullptr) return nullptr;
  for (const auto& g : topology.gpus) {
    if (normalize_pci_bus_id(g.pci_bus_id) == d->pci_bus_id) return &g;
  }
  return nullptr;
}

bool BenchContext::peer_access(int from, int to) const {
  if (from == to || device(from) == nullptr || device(to) == nullptr) return false;
  if (placement.same_device(from, to)) return true;
  const auto f = static_cast<std::size_t>(placement.device(from));
  const auto t = static_cast<std::size_t>(placement.device(to));
  if (f >= inventory.can_access_peer.size() || t >= inventory.can_access_peer[f].size())
    return false;
  return inventory.can_access_peer[f][t];
}

int BenchContext::nvlink_links(int a, int b) const {
  if (device(a) != nullptr && device(b) != nullptr && placement.same_device(a, b)) return 0;
  const topo::Gpu* ga = topology_gpu(a);
  const topo::Gpu* gb = topology_gpu(b);
  if (ga == nullptr || gb == nullptr) return 0;
  const auto ia = static_cast<std::size_t>(ga - topology.gpus.data());
  const auto ib = static_cast<std::size_t>(gb - topology.gpus.data());
  if (ia >= topology.nvlink_count.size() || ib >= topology.nvlink_count[ia].size()) return 0;
  return topology.nvlink_count[ia][ib];
}

}  // namespace p2p::bench
