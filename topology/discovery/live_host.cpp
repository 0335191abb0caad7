// Live discovery: hwloc on this host plus what sysfs and the driver's /proc files add.
#include <unistd.h>

#include <sstream>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "topology/classify.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/discovery/gpudirect_sysfs.hpp"
#include "topology/discovery/hwloc_snapshot.hpp"
#include "topology/discovery/sysfs_link.hpp"
#include "topology/environment.hpp"

namespace p2p::topo {

namespace {

// "Model:           NVIDIA H200" from the driver's per-GPU information file.
std::string model_from_driver(const std::string& bus_id) {
  std::istringstream in(
      try_read_text_file("/proc/driver/nvidia/gpus/" + bus_id + "/information").value_or(""));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Model:", 0) != 0) continue;
    const auto start = line.find_first_not_of(" \t", 6);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

std::string this_hostname() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
}

}  // namespace

TopologySnapshot snapshot_from_this_host(const LiveProbes& probes) {
  TopologySnapshot t = snapshot_from_hwloc(HwlocTopology::from_this_host());
  if (t.gpus.empty())
    throw NoGpuError("no NVIDIA GPU (PCI vendor 0x10de, class 0x0300/0x0302) found on this host");
  t.source = "live";
  const std::string host = this_hostname();
  if (!host.empty()) t.hostname = host;
  for (Gpu& g : t.gpus) {
    const SysfsLinks links =
        read_sysfs_links("/sys", g.pci_bus_id, g.pcie_path.empty() ? "" : g.pcie_path.back());
    if (links.current.gen && links.current.width)
      g.link_current = links.current;  // else keep hwloc's figure
    g.link_max = links.max;
    if (g.name.empty()) g.name = model_from_driver(g.pci_bus_id);
  }
  if (probes.nvlink_counts) {
    if (auto counts = probes.nvlink_counts(t.gpus)) t.nvlink_count = std::move(*counts);
  }
  EnvironmentFacts facts = read_environment_facts("/", /*live=*/true);
  if (probes.virtualization_mode) facts.nvml_virtualization_mode = probes.virtualization_mode();
  t.environment = classify_environment(facts);
  // In a VFIO guest the hypervisor's clique capability decides P2P, not the emulated tree.
  t.gpudirect = read_gpudirect_from_sysfs("/sys", t.gpus);
  classify_snapshot(t);
  return t;
}

}  // namespace p2p::topo
