#include "doctor/collect/live_topology.hpp"

#include "doctor/collect/probes.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/nvlink_links.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::doctor {

namespace {

constexpr int kNvmlProbeTimeoutMs =
    45000;  // first NVML open boots GSP on every GPU without persistence

}  // namespace

topo::TopologySnapshot live_topology() {
  topo::LiveProbes probes;
  probes.virtualization_mode = [] {
    const NvmlProbe nvml = probe_nvml(kNvmlProbeTimeoutMs);
    // Mode 0 (none) is no evidence of virtualisation, as in the doctor's facts: skip it.
    for (const auto& d : nvml.devices) {
      if (d.virtualization_mode && *d.virtualization_mode != 0)
        return virtualization_mode_name(*d.virtualization_mode);
    }
    return std::string();
  };
  probes.nvlink_counts =
      [](const std::vector<topo::Gpu>& gpus) -> std::optional<std::vector<std::vector<int>>> {
    std::vector<std::string> bus_ids;
    for (const auto& g : gpus) bus_ids.push_back(g.pci_bus_id);
    const auto remotes = probe_nvlink_remotes(bus_ids, kNvmlProbeTimeoutMs);
    if (!remotes) return std::nullopt;
    return nvlink_counts_from_remotes(bus_ids, *remotes);
  };
  return topo::snapshot_from_this_host(probes);
}

}  // namespace p2p::doctor
