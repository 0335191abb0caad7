#include "session/live_topology.hpp"

#include "doctor/codes.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/nvlink_links.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::session {

namespace {

constexpr int kNvmlProbeTimeoutMs =
    45000;  // first NVML open boots GSP on every GPU without persistence

}  // namespace

topo::TopologySnapshot live_topology() {
  topo::LiveProbes probes;
  probes.virtualization_mode = [] {
    const doctor::NvmlProbe nvml = doctor::probe_nvml(kNvmlProbeTimeoutMs);
    // Mode 0 (none) is no evidence of virtualisation, as in the doctor's facts: skip it.
    for (const auto& d : nvml.devices) {
      if (d.virtualization_mode && *d.virtualization_mode != 0)
        return doctor::virtualization_mode_name(*d.virtualization_mode);
    }
    return std::string();
  };
  probes.nvlink_counts =
      [](const std::vector<topo::Gpu>& gpus) -> std::optional<std::vector<std::vector<int>>> {
    std::vector<std::string> bus_ids;
    for (const auto& g : gpus) bus_ids.push_back(g.pci_bus_id);
    const auto remotes = doctor::probe_nvlink_remotes(bus_ids, kNvmlProbeTimeoutMs);
    if (!remotes) return std::nullopt;
    return doctor::nvlink_counts_from_remotes(bus_ids, *remotes);
  };
  return topo::snapshot_from_this_host(probes);
}

}  // namespace p2p::session
