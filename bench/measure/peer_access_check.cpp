#include "bench/measure/peer_access_check.hpp"

#include <cuda_runtime_api.h>

#include <optional>

#include "bench/measure/context.hpp"
#include "common/cuda_check.hpp"

namespace p2p::bench {

namespace {

std::optional<int> cuda_ordinal(const std::string& pci_bus_id, int device_count) {
  const std::string want = normalize_pci_bus_id(pci_bus_id);
  for (int d = 0; d < device_count; ++d) {
    char id[32] = {};
    P2P_CHECK(cudaDeviceGetPCIBusId(id, sizeof(id), d));
    if (normalize_pci_bus_id(id) == want) return d;
  }
  return std::nullopt;
}

}  // namespace

topo::PeerAccessCheck cuda_peer_access_check() {
  return [](const topo::TopologySnapshot& t) {
    int count = 0;
    // A host where CUDA cannot start has no verifiable peer access: every pair says why,
    // so require_p2p blocks with the cause instead of ending the gate with an API error.
    const cudaError_t usable = cudaGetDeviceCount(&count);
    const std::string unusable =
        usable == cudaSuccess ? "" : std::string("CUDA not usable: ") + cudaGetErrorName(usable);
    std::vector<std::optional<int>> ordinal;
    for (const auto& g : t.gpus)
      ordinal.push_back(unusable.empty() ? cuda_ordinal(g.pci_bus_id, count) : std::nullopt);
    std::vector<topo::PeerAccessResult> out;
    for (std::size_t a = 0; a < t.gpus.size(); ++a) {
      for (std::size_t b = a + 1; b < t.gpus.size(); ++b) {
        topo::PeerAccessResult r{a, b, false, ""};
        if (!unusable.empty()) {
          r.detail = unusable;
        } else if (!ordinal[a] || !ordinal[b]) {
          r.detail = "not visible to CUDA (CUDA_VISIBLE_DEVICES or a failed GPU)";
        } else {
          int ab = 0, ba = 0;
          P2P_CHECK(cudaDeviceCanAccessPeer(&ab, *ordinal[a], *ordinal[b]));
          P2P_CHECK(cudaDeviceCanAccessPeer(&ba, *ordinal[b], *ordinal[a]));
          r.can_access = ab == 1 && ba == 1;
          r.detail = "cudaDeviceCanAccessPeer = " + std::to_string(ab) + "/" + std::to_string(ba);
        }
        out.push_back(std::move(r));
      }
    }
    return out;
  };
}

}  // namespace p2p::bench
