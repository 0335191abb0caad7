#include "gpus/device_inventory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "common/cpu_list.hpp"
#include "common/file_io.hpp"
#include "common/sysfs_pci_link.hpp"
#include "common/text.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::gpus {
namespace {

std::optional<int> read_int(const std::string& path) {
  const auto text = try_read_text_file(path);
  if (!text) return std::nullopt;
  try {
    std::size_t used = 0;
    const int v = std::stoi(trim(*text), &used);
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::string normalize_pci_bus_id(const std::string& id) {
  std::string out;
  out.reserve(id.size());
  for (char c : id) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  const auto colon = out.find(':');
  // An 8-digit PCI domain as CUDA prints it; sysfs uses 4 digits.
  if (colon == 8 && out.compare(0, 4, "0000") == 0) out.erase(0, 4);
  return out;
}

void read_sysfs_pci_facts(topo::Gpu& gpu, const std::string& sysfs_root) {
  const std::string dir = sysfs_root + "/bus/pci/devices/" + gpu.pci_bus_id + "/";
  // Generation and width: bench/link_ceiling.hpp computes the link ceilings from them.
  const SysfsPciLink link = read_sysfs_pci_link(sysfs_root, gpu.pci_bus_id);
  auto take = [](const SysfsLinkState& state, topo::PcieLink& out) {
    if (const auto gen = state.gts ? topo::gen_from_gts(*state.gts) : std::nullopt) out.gen = gen;
    if (state.width) out.width = state.width;
  };
  take(link.current, gpu.link_current);
  take(link.max, gpu.link_max);
  if (const auto numa = read_int(dir + "numa_node")) gpu.numa_node = *numa;
  if (const auto cpus = try_read_text_file(dir + "local_cpulist")) {
    if (parse_cpu_list(*cpus)) gpu.cpuset = trim(*cpus);
  }
}

topo::TopologySnapshot snapshot_from_cuda(const DeviceInventory& inventory,
                                          const std::string& sysfs_root) {
  topo::TopologySnapshot snap;
  snap.source = "cuda";
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) snap.hostname = host;
  for (const auto& d : inventory.devices) {
    topo::Gpu g;
    g.pci_bus_id = d.pci_bus_id;
    g.name = d.name;
    read_sysfs_pci_facts(g, sysfs_root);
    snap.gpus.push_back(std::move(g));
  }
  std::sort(snap.gpus.begin(), snap.gpus.end(),
            [](const topo::Gpu& a, const topo::Gpu& b) { return a.pci_bus_id < b.pci_bus_id; });
  const std::size_t n = snap.gpus.size();
  snap.nvlink_count.assign(n, std::vector<int>(n, 0));
  return snap;
}

std::string nvidia_driver_version() {
  const auto v = try_read_text_file("/sys/module/nvidia/version");
  return v ? trim(*v) : "";
}

}  // namespace p2p::gpus
