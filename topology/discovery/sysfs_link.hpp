// A GPU's PCIe links from Linux's PCI sysfs (read through common/sysfs_pci_link.hpp), as the
// snapshot holds them: generation, width and GB/s.
#pragma once

#include <string>

#include "common/sysfs_pci_link.hpp"
#include "topology/snapshot.hpp"

namespace p2p::topo {

// Generation (from the rate), width and, where both are known, GB/s. Pure.
PcieLink pcie_link_from_sysfs(const SysfsLinkState& state);

struct SysfsLinks {
  PcieLink current;
  // The best link the GPU's slot can train: the lower of the GPU's and its upstream port's
  // maximum (a Gen5 GPU in a Gen4 slot trains at Gen4).
  PcieLink max;
};

// `sysfs_root` is "/sys" on a live host, a fixture tree in tests. `upstream_bus_id` "" when the
// GPU sits directly on a host bridge's bus. Missing or "Unknown" values stay empty.
SysfsLinks read_sysfs_links(const std::string& sysfs_root, const std::string& bus_id,
                            const std::string& upstream_bus_id);

}  // namespace p2p::topo
