// NvmlHealth <-> JSON (nvml.devices[].health of the facts document). Strict like the rest of the
// facts codec: every key present, null where NVML gave nothing, no unknown keys.
#include "doctor/facts_json_parts.hpp"

namespace p2p::doctor {

using nlohmann::json;

namespace {

json process_to_json(const NvmlProcess& p) {
  return {{"pid", p.pid},
          {"kind", p.kind},
          {"used_memory_bytes", optional_json(p.used_memory_bytes)},
          {"name", optional_json(p.name)}};
}

NvmlProcess process_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  NvmlProcess p;
  in.get("pid", p.pid);
  in.get("kind", p.kind);
  if (p.kind != "compute" && p.kind != "graphics")
    throw InputError(in.path("kind") + ": unknown process kind '" + p.kind +
                     "' (expected compute or graphics)");
  in.opt("used_memory_bytes", p.used_memory_bytes);
  in.opt("name", p.name);
  in.finish();
  return p;
}

json processes_to_json(const std::optional<std::vector<NvmlProcess>>& list) {
  if (!list) return nullptr;
  json a = json::array();
  for (const auto& p : *list) a.push_back(process_to_json(p));
  return a;
}

json memory_to_json(const NvmlHealth& h) {
  return {{"ecc_mode_current", optional_json(h.ecc_mode_current)},
          {"ecc_mode_pending", optional_json(h.ecc_mode_pending)},
          {"ecc_volatile_corrected", optional_json(h.ecc_volatile_corrected)},
          {"ecc_volatile_uncorrected", optional_json(h.ecc_volatile_uncorrected)},
          {"ecc_aggregate_corrected", optional_json(h.ecc_aggregate_corrected)},
          {"ecc_aggregate_uncorrected", optional_json(h.ecc_aggregate_uncorrected)},
          {"retired_pages_single_bit", optional_json(h.retired_pages_single_bit)},
          {"retired_pages_double_bit", optional_json(h.retired_pages_double_bit)},
          {"retired_pages_pending", optional_json(h.retired_pages_pending)},
          {"remapped_rows_correctable", optional_json(h.remapped_rows_correctable)},
          {"remapped_rows_uncorrectable", optional_json(h.remapped_rows_uncorrectable)},
          {"remapped_rows_pending", optional_json(h.remapped_rows_pending)},
          {"remapped_rows_failed", optional_json(h.remapped_rows_failed)}};
}

void memory_from_json(StrictReader& in, NvmlHealth& h) {
  in.opt("ecc_mode_current", h.ecc_mode_current);
  in.opt("ecc_mode_pending", h.ecc_mode_pending);
  in.opt("ecc_volatile_corrected", h.ecc_volatile_corrected);
  in.opt("ecc_volatile_uncorrected", h.ecc_volatile_uncorrected);
  in.opt("ecc_aggregate_corrected", h.ecc_aggregate_corrected);
  in.opt("ecc_aggregate_uncorrected", h.ecc_aggregate_uncorrected);
  in.opt("retired_pages_single_bit", h.retired_pages_single_bit);
  in.opt("retired_pages_double_bit", h.retired_pages_double_bit);
  in.opt("retired_pages_pending", h.retired_pages_pending);
  in.opt("remapped_rows_correctable", h.remapped_rows_correctable);
  in.opt("remapped_rows_uncorrectable", h.remapped_rows_uncorrectable);
  in.opt("remapped_rows_pending", h.remapped_rows_pending);
  in.opt("remapped_rows_failed", h.remapped_rows_failed);
}

json state_to_json(const NvmlHealth& h) {
  return {{"recovery_action", optional_json(h.recovery_action)},
          {"processes", processes_to_json(h.processes)},
          {"pcie_replay_count", optional_json(h.pcie_replay_count)},
          {"clock_event_reasons", optional_json(h.clock_event_reasons)},
          {"clock_event_ns", h.clock_event_ns},
          {"temperature_c", optional_json(h.temperature_c)},
          {"temperature_slowdown_c", optional_json(h.temperature_slowdown_c)},
          {"temperature_shutdown_c", optional_json(h.temperature_shutdown_c)},
          {"power_usage_mw", optional_json(h.power_usage_mw)},
          {"power_limit_mw", optional_json(h.power_limit_mw)},
          {"mig_mode_current", optional_json(h.mig_mode_current)},
          {"mig_mode_pending", optional_json(h.mig_mode_pending)},
          {"vgpu_licensed", optional_json(h.vgpu_licensed)},
          {"vgpu_license_product", optional_json(h.vgpu_license_product)}};
}

void state_from_json(StrictReader& in, NvmlHealth& h) {
  in.opt("recovery_action", h.recovery_action);
  if (const json& p = in.at("processes"); !p.is_null())
    h.processes = strict_list<NvmlProcess>(p, in.path("processes"), process_from_json);
  in.opt("pcie_replay_count", h.pcie_replay_count);
  in.opt("clock_event_reasons", h.clock_event_reasons);
  in.get("clock_event_ns", h.clock_event_ns);
  in.opt("temperature_c", h.temperature_c);
  in.opt("temperature_slowdown_c", h.temperature_slowdown_c);
  in.opt("temperature_shutdown_c", h.temperature_shutdown_c);
  in.opt("power_usage_mw", h.power_usage_mw);
  in.opt("power_limit_mw", h.power_limit_mw);
  in.opt("mig_mode_current", h.mig_mode_current);
  in.opt("mig_mode_pending", h.mig_mode_pending);
  in.opt("vgpu_licensed", h.vgpu_licensed);
  in.opt("vgpu_license_product", h.vgpu_license_product);
}

}  // namespace

json health_to_json(const NvmlHealth& h) {
  json j = {{"query_errors", h.query_errors}};
  j.update(memory_to_json(h));
  j.update(state_to_json(h));
  return j;
}

NvmlHealth health_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  NvmlHealth h;
  in.get("query_errors", h.query_errors);
  memory_from_json(in, h);
  state_from_json(in, h);
  in.finish();
  return h;
}

}  // namespace p2p::doctor
