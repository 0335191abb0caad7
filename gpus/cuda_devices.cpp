#include "gpus/cuda_devices.hpp"

#include <cuda_runtime_api.h>

#include "common/cuda_check.hpp"
#include "document/bench_document.hpp"

namespace p2p::gpus {

DeviceInventory discover_devices() {
  DeviceInventory inv;
  int count = 0;
  P2P_CHECK(cudaGetDeviceCount(&count));
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    P2P_CHECK(cudaGetDeviceProperties(&prop, d));
    char bus[32] = {};
    P2P_CHECK(cudaDeviceGetPCIBusId(bus, sizeof(bus), d));
    DeviceInfo info;
    info.ordinal = d;
    info.pci_bus_id = normalize_pci_bus_id(bus);
    info.name = prop.name;
    unsigned char uuid[16];
    for (int i = 0; i < 16; ++i) uuid[i] = static_cast<unsigned char>(prop.uuid.bytes[i]);
    info.uuid = doc::gpu_uuid_text(uuid);
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.memory_bytes = prop.totalGlobalMem;
    inv.devices.push_back(info);
  }
  inv.can_access_peer.assign(count, std::vector<bool>(count, false));
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      if (a == b) continue;
      int ok = 0;
      P2P_CHECK(cudaDeviceCanAccessPeer(&ok, a, b));
      inv.can_access_peer[a][b] = ok != 0;
    }
  }
  return inv;
}

}  // namespace p2p::gpus
