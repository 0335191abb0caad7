#include "topology/discovery/sysfs_link.hpp"

#include <algorithm>

#include "topology/pcie_link.hpp"

namespace p2p::topo {

namespace {

std::optional<int> lower(std::optional<int> a, std::optional<int> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

PcieLink with_gbps(PcieLink l) {
  if (l.gen && l.width) return make_link(*l.gen, *l.width);
  return l;
}

}  // namespace

PcieLink pcie_link_from_sysfs(const SysfsLinkState& state) {
  PcieLink l;
  if (state.gts) l.gen = gen_from_gts(*state.gts);
  l.width = state.width;
  return with_gbps(l);
}

SysfsLinks read_sysfs_links(const std::string& sysfs_root, const std::string& bus_id,
                            const std::string& upstream_bus_id) {
  const SysfsPciLink gpu = read_sysfs_pci_link(sysfs_root, bus_id);
  SysfsLinks out{pcie_link_from_sysfs(gpu.current), pcie_link_from_sysfs(gpu.max)};
  if (upstream_bus_id.empty()) return out;
  const PcieLink port = pcie_link_from_sysfs(read_sysfs_pci_link(sysfs_root, upstream_bus_id).max);
  PcieLink l;
  l.gen = lower(out.max.gen, port.gen);
  l.width = lower(out.max.width, port.width);
  out.max = with_gbps(l);
  return out;
}

}  // namespace p2p::topo
