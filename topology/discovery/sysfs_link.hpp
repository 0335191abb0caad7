// PCIe link speed and width as Linux reports them under /sys/bus/pci/devices/<bdf>/.
#pragma once

#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

// `which` is "current" or "max" (current_link_speed/_width, max_link_speed/_width).
// `sysfs_root` is "/sys" on a live host, a fixture tree in tests. Missing or "Unknown" values
// stay empty.
PcieLink read_sysfs_link(const std::string& sysfs_root, const std::string& bus_id, const std::string& which);

// The best link the GPU's slot can train: the lower of the GPU's and its upstream port's
// maximum (a Gen5 GPU in a Gen4 slot trains at Gen4). `upstream_bus_id` "" when the GPU sits
// directly on a host bridge's bus.
PcieLink read_sysfs_max_link(const std::string& sysfs_root, const std::string& bus_id,
                             const std::string& upstream_bus_id);

}  // namespace p2p::topo
