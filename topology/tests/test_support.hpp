// Helpers shared by the topology tests: fixture paths and hand-built snapshots.
#pragma once

#include <string>
#include <vector>

#include "topology/classify.hpp"
#include "topology/snapshot.hpp"

namespace p2p::topo::testing {

inline std::string fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/" + name;
}
inline std::string golden(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/" + name;
}

inline Gpu make_gpu(const std::string& bus_id, const std::string& host_bridge,
                    std::vector<std::string> path, int numa_node) {
  Gpu g;
  g.pci_bus_id = bus_id;
  g.device_id = 0x2bb5;
  g.host_bridge = host_bridge;
  g.pcie_path = std::move(path);
  g.numa_node = numa_node;
  g.cpuset = numa_node == 1 ? "32-63" : "0-31";
  g.link_current = PcieLink{5, 16, 63.015};
  return g;
}

inline TopologySnapshot make_snapshot(std::vector<Gpu> gpus, const std::string& source = "test") {
  TopologySnapshot t;
  t.source = source;
  t.gpus = std::move(gpus);
  classify_snapshot(t);
  return t;
}

// Every GPU on its own root port under one host bridge: what a VFIO guest shows.
inline TopologySnapshot flat_phb(std::size_t n, const std::string& bus_prefix = "0000:0") {
  std::vector<Gpu> gpus;
  for (std::size_t i = 0; i < n; ++i)
    gpus.push_back(make_gpu(bus_prefix + std::to_string(i + 1) + ":00.0", "0000:[00-08]",
                            {"0000:00:02." + std::to_string(i)}, 0));
  return make_snapshot(gpus);
}

// Every GPU on its own host bridge, four per NUMA node: the host seen from an LXC container.
inline TopologySnapshot per_root_complex(std::size_t n) {
  std::vector<Gpu> gpus;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string hb = "0000:[" + std::to_string(i) + "0-" + std::to_string(i) + "f]";
    gpus.push_back(make_gpu("0000:" + std::to_string(i) + "1:00.0", hb,
                            {"0000:" + std::to_string(i) + "0:01.1"}, static_cast<int>(i / 4)));
  }
  return make_snapshot(gpus);
}

inline std::vector<std::vector<std::string>> rows(
    std::initializer_list<std::vector<std::string>> r) {
  return r;
}

}  // namespace p2p::topo::testing
