#include "document/gpu_sharing.hpp"

#include "common/json_util.hpp"

namespace p2p::doc {

void to_json(nlohmann::json& j, const SharingRecord& r) {
  j = {{"shared", r.shared},
       {"checked", r.checked},
       {"notes", r.notes},
       {"other_pids", r.other_pids}};
}

void from_json(const nlohmann::json& j, SharingRecord& r) {
  r.shared = value_at<bool>(j, "shared");
  r.checked = value_at<std::vector<std::string>>(j, "checked");
  r.notes = value_at<std::vector<std::string>>(j, "notes");
  r.other_pids = integers_at<long>(j, "other_pids", 0, 1L << 31);
}

void to_json(nlohmann::json& j, const GpuProcess& p) {
  j = {{"pid", p.pid},
       {"kind", p.kind},
       {"name", p.name},
       {"used_bytes", optional_json(p.used_bytes)}};
}

void from_json(const nlohmann::json& j, GpuProcess& p) {
  p.pid = integer_at<long>(j, "pid", 0, 1L << 31);
  p.kind = value_at<std::string>(j, "kind");
  p.name = value_at<std::string>(j, "name");
  p.used_bytes = optional_at<std::uint64_t>(j, "used_bytes");
}

void to_json(nlohmann::json& j, const GpuActivity& g) {
  j = {{"pci_bus_id", g.pci_bus_id},
       {"nvml", g.nvml},
       {"processes", g.processes},
       {"utilization_percent", optional_json(g.utilization_percent)},
       {"p2pcheck_runs", g.p2pcheck_runs}};
}

void from_json(const nlohmann::json& j, GpuActivity& g) {
  g.pci_bus_id = value_at<std::string>(j, "pci_bus_id");
  g.nvml = value_at<bool>(j, "nvml");
  g.processes = j.at("processes").get<std::vector<GpuProcess>>();
  g.utilization_percent = optional_integer_at<int>(j, "utilization_percent", 0, 100);
  g.p2pcheck_runs = integers_at<long>(j, "p2pcheck_runs", 0, 1L << 31);
}

}  // namespace p2p::doc
