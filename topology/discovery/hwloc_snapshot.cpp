#include "topology/discovery/hwloc_snapshot.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "common/error.hpp"
#include "topology/nvlink.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::topo {

namespace {

constexpr unsigned kNvidiaVendor = 0x10de;

bool is_nvidia_gpu(hwloc_obj_t o) {
  const auto& p = o->attr->pcidev;
  return p.vendor_id == kNvidiaVendor && (p.class_id == 0x0300 || p.class_id == 0x0302);
}

std::string bus_id(const hwloc_obj_attr_u::hwloc_pcidev_attr_s& p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", static_cast<unsigned>(p.domain),
                static_cast<unsigned>(p.bus), static_cast<unsigned>(p.dev),
                static_cast<unsigned>(p.func));
  return buf;
}

std::string host_bridge_id(hwloc_obj_t bridge) {
  const auto& d = bridge->attr->bridge.downstream.pci;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:[%02x-%02x]", static_cast<unsigned>(d.domain),
                static_cast<unsigned>(d.secondary_bus), static_cast<unsigned>(d.subordinate_bus));
  return buf;
}

std::string bitmap_list(hwloc_const_bitmap_t set) {
  char* raw = nullptr;
  P2P_CHECK_HWLOC(hwloc_bitmap_list_asprintf(&raw, set));
  std::unique_ptr<char, decltype(&std::free)> owned(raw, &std::free);
  return raw;
}

std::string gpu_model_below(hwloc_obj_t o) {
  for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling) {
    if (c->type != HWLOC_OBJ_OS_DEVICE) continue;
    if (const char* model = hwloc_obj_get_info_by_name(c, "GPUModel")) return model;
  }
  return "";
}

// hwloc's OpenCL backend hangs its device on the bridge covering the bus when it cannot match
// the exact function (the H200 VM capture shows "opencl1d0" beside 0000:00:06.0, not below
// it). Take such an orphan's model only when it is unambiguous: one NVIDIA GPU and one
// NVIDIA GPU OS device under the same parent.
std::string gpu_model_beside(hwloc_obj_t gpu) {
  if (!gpu->parent) return "";
  int gpus = 0, models = 0;
  std::string model;
  for (hwloc_obj_t c = gpu->parent->io_first_child; c; c = c->next_sibling) {
    if (c->type == HWLOC_OBJ_PCI_DEVICE && is_nvidia_gpu(c)) ++gpus;
    if (c->type != HWLOC_OBJ_OS_DEVICE) continue;
    const char* vendor = hwloc_obj_get_info_by_name(c, "GPUVendor");
    const char* m = hwloc_obj_get_info_by_name(c, "GPUModel");
    if (vendor && m && std::string(vendor).find("NVIDIA") != std::string::npos) {
      ++models;
      model = m;
    }
  }
  return gpus == 1 && models == 1 ? model : "";
}

Gpu read_gpu(hwloc_topology_t topo, hwloc_obj_t o) {
  Gpu g;
  const auto& p = o->attr->pcidev;
  g.pci_bus_id = bus_id(p);
  g.vendor_id = p.vendor_id;
  g.device_id = p.device_id;
  g.name = gpu_model_below(o);
  if (g.name.empty()) {
    const char* pci_name = hwloc_obj_get_info_by_name(o, "PCIDevice");  // from the PCI id database
    g.name = pci_name ? pci_name : gpu_model_beside(o);
  }
  g.link_current = link_from_gbps(p.linkspeed);
  for (hwloc_obj_t up = o->parent; up && up->type == HWLOC_OBJ_BRIDGE; up = up->parent) {
    if (up->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
      g.host_bridge = host_bridge_id(up);
      break;
    }
    g.pcie_path.push_back(bus_id(up->attr->bridge.upstream.pci));
  }
  std::reverse(g.pcie_path.begin(), g.pcie_path.end());
  // I/O objects have no cpuset; their locality is that of the first normal ancestor.
  if (hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topo, o)) {
    if (local->cpuset) g.cpuset = bitmap_list(local->cpuset);
    if (local->nodeset && hwloc_bitmap_weight(local->nodeset) == 1)
      g.numa_node = hwloc_bitmap_first(local->nodeset);
  }
  return g;
}

// The PCI device an NVLink endpoint stands for: OS devices (nvml0) hang below their GPU.
hwloc_obj_t pci_of(hwloc_obj_t o) {
  while (o && o->type == HWLOC_OBJ_OS_DEVICE) o = o->parent;
  return o && o->type == HWLOC_OBJ_PCI_DEVICE ? o : nullptr;
}

bool is_nvswitch(hwloc_obj_t pci) {
  return (pci->subtype && std::string(pci->subtype) == "NVSwitch") ||
         (pci->attr->pcidev.vendor_id == kNvidiaVendor && pci->attr->pcidev.class_id == 0x0680);
}

std::vector<std::vector<int>> read_nvlink_counts(hwloc_topology_t topo,
                                                 const std::vector<Gpu>& gpus) {
  const std::size_t n = gpus.size();
  unsigned nr = 0;
  P2P_CHECK_HWLOC(hwloc_distances_get_by_name(topo, "NVLinkBandwidth", &nr, nullptr, 0));
  if (nr == 0) return std::vector<std::vector<int>>(n, std::vector<int>(n, 0));
  std::vector<hwloc_distances_s*> raw(nr, nullptr);
  P2P_CHECK_HWLOC(hwloc_distances_get_by_name(topo, "NVLinkBandwidth", &nr, raw.data(), 0));
  const auto release = [topo](hwloc_distances_s* d) { hwloc_distances_release(topo, d); };
  std::vector<std::unique_ptr<hwloc_distances_s, decltype(release)>> owned;
  for (unsigned k = 0; k < nr; ++k) owned.emplace_back(raw[k], release);

  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < n; ++i) index_of[gpus[i].pci_bus_id] = i;
  NvlinkBandwidth bw;
  bw.gpu_mbps.assign(n, std::vector<std::uint64_t>(n, 0));
  bw.switch_mbps.assign(n, {});
  std::map<hwloc_obj_t, std::size_t> switch_column;
  for (const auto& d : owned) {
    // Each endpoint is a GPU of ours (by bus id), an NVSwitch, or something else (a CPU).
    std::vector<long> gpu_at(d->nbobjs, -1), switch_at(d->nbobjs, -1);
    for (unsigned k = 0; k < d->nbobjs; ++k) {
      hwloc_obj_t pci = pci_of(d->objs[k]);
      if (!pci) continue;
      const auto it = index_of.find(bus_id(pci->attr->pcidev));
      if (it != index_of.end()) {
        gpu_at[k] = static_cast<long>(it->second);
      } else if (is_nvswitch(pci)) {
        switch_at[k] =
            static_cast<long>(switch_column.emplace(pci, switch_column.size()).first->second);
      }
    }
    for (auto& row : bw.switch_mbps) row.resize(switch_column.size(), 0);
    for (unsigned a = 0; a < d->nbobjs; ++a) {
      if (gpu_at[a] < 0) continue;
      for (unsigned b = 0; b < d->nbobjs; ++b) {
        const std::uint64_t v = d->values[a * d->nbobjs + b];
        if (gpu_at[b] >= 0 && a != b) bw.gpu_mbps[gpu_at[a]][gpu_at[b]] = v;
        if (switch_at[b] >= 0) bw.switch_mbps[gpu_at[a]][switch_at[b]] = v;
      }
    }
  }
  return nvlink_counts_from_bandwidth(bw);
}

}  // namespace

TopologySnapshot snapshot_from_hwloc(const HwlocTopology& topology) {
  hwloc_topology_t topo = topology.get();
  TopologySnapshot t;
  if (const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "HostName"))
    t.hostname = host;
  for (hwloc_obj_t o = hwloc_get_next_pcidev(topo, nullptr); o; o = hwloc_get_next_pcidev(topo, o))
    if (is_nvidia_gpu(o)) t.gpus.push_back(read_gpu(topo, o));
  std::sort(t.gpus.begin(), t.gpus.end(),
            [](const Gpu& a, const Gpu& b) { return a.pci_bus_id < b.pci_bus_id; });
  t.nvlink_count = read_nvlink_counts(topo, t.gpus);
  return t;
}

}  // namespace p2p::topo
