#include "topology/discovery/hwloc_topology.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <stdexcept>

#include "common/error.hpp"

namespace p2p::topo {

std::unique_ptr<hwloc_topology, HwlocTopology::Destroy> HwlocTopology::init_keeping_io() {
  // hwloc prints "critical" messages of its own on stderr (e.g. an XML without a NUMA node);
  // p2pcheck reports every failure itself, on one line. A user's own HWLOC_HIDE_ERRORS wins.
  ::setenv("HWLOC_HIDE_ERRORS", "2", /*overwrite=*/0);
  hwloc_topology_t raw = nullptr;
  P2P_CHECK_HWLOC(hwloc_topology_init(&raw));
  std::unique_ptr<hwloc_topology, Destroy> t(raw);
  // hwloc drops I/O objects by default and, with "important" filtering, bridges without
  // interesting children: keep everything, as `lstopo --whole-io` does.
  P2P_CHECK_HWLOC(
      hwloc_topology_set_type_filter(raw, HWLOC_OBJ_BRIDGE, HWLOC_TYPE_FILTER_KEEP_ALL));
  P2P_CHECK_HWLOC(
      hwloc_topology_set_type_filter(raw, HWLOC_OBJ_PCI_DEVICE, HWLOC_TYPE_FILTER_KEEP_ALL));
  // OS devices carry GPU names (GPUModel) and are the endpoints of the NVLink distances.
  P2P_CHECK_HWLOC(
      hwloc_topology_set_type_filter(raw, HWLOC_OBJ_OS_DEVICE, HWLOC_TYPE_FILTER_KEEP_ALL));
  return t;
}

HwlocTopology HwlocTopology::from_xml(const std::string& path) {
  auto t = init_keeping_io();
  P2P_CHECK_HWLOC(hwloc_topology_set_xml(t.get(), path.c_str()));
  errno = 0;  // hwloc's XML import can fail without setting errno; don't report a stale one
  P2P_CHECK_HWLOC(hwloc_topology_load(t.get()));
  return HwlocTopology(std::move(t));
}

HwlocTopology HwlocTopology::from_xml_text(const std::string& text) {
  if (text.size() > static_cast<std::size_t>(INT_MAX))
    throw std::length_error("hwloc XML larger than 2 GiB");
  auto t = init_keeping_io();
  // hwloc_topology_set_xmlbuffer takes the length including the terminating NUL.
  P2P_CHECK_HWLOC(
      hwloc_topology_set_xmlbuffer(t.get(), text.c_str(), static_cast<int>(text.size() + 1)));
  errno = 0;
  P2P_CHECK_HWLOC(hwloc_topology_load(t.get()));
  return HwlocTopology(std::move(t));
}

HwlocTopology HwlocTopology::from_this_host() {
  auto t = init_keeping_io();
  // OpenCL and CUDA discovery create a context on every GPU (seconds, and memory on a GPU a
  // benchmark may be using); GL queries X displays. NVML (names, NVLink) and sysfs stay.
  for (const char* component : {"opencl", "cuda", "gl"}) {
    const int rc =
        hwloc_topology_set_components(t.get(), HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, component);
    if (rc < 0 && errno == EINVAL)
      continue;  // this hwloc has no such component: nothing to turn off
    P2P_CHECK_HWLOC(rc);
  }
  P2P_CHECK_HWLOC(hwloc_topology_load(t.get()));
  return HwlocTopology(std::move(t));
}

}  // namespace p2p::topo
