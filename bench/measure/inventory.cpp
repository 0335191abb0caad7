#include "bench/measure/inventory.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>

#include "bench/link_ceiling.hpp"
#include "bench/measure/affinity.hpp"
#include "common/cuda_check.hpp"
#include "common/file_io.hpp"
#include "common/sysfs_pci_link.hpp"
#include "common/text.hpp"
#include "document/bench_document.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::bench {
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

void read_sysfs_pci_facts(topo::Gpu& gpu, const std::string& sysfs_root) {
  const std::string dir = sysfs_root + "/bus/pci/devices/" + gpu.pci_bus_id + "/";
  // Generation and width: the link ceilings (link_ceiling.hpp) are computed from them.
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

std::string cuda_version_text(int encoded) {
  return std::to_string(encoded / 1000) + "." + std::to_string((encoded % 1000) / 10);
}

}  // namespace p2p::bench
