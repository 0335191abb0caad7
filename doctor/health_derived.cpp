#include "doctor/health_derived.hpp"

#include <algorithm>
#include <cmath>

#include "common/text.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/knowledge/driver_statements.hpp"

namespace p2p::doctor {

namespace {

std::string n(std::uint64_t v) { return std::to_string(v); }

std::uint64_t get(const std::optional<std::uint64_t>& v) { return v.value_or(0); }

void ecc_counts(const NvmlHealth& h, HealthReading& r) {
  if (get(h.ecc_volatile_uncorrected) > 0) {
    r.failing.push_back(n(*h.ecc_volatile_uncorrected) +
                        " uncorrectable ECC error(s) since the driver loaded (" +
                        n(get(h.ecc_aggregate_uncorrected)) + " in the GPU's life)");
    r.needs_reset = true;
  } else if (get(h.ecc_aggregate_uncorrected) > 0) {
    r.warnings.push_back(n(*h.ecc_aggregate_uncorrected) +
                         " uncorrectable ECC error(s) in the GPU's life, none since the driver "
                         "loaded");
  }
  const std::uint64_t corrected =
      std::max(get(h.ecc_volatile_corrected), get(h.ecc_aggregate_corrected));
  if (corrected > 0)
    r.warnings.push_back(n(get(h.ecc_volatile_corrected)) +
                         " corrected ECC error(s) since the driver loaded, " +
                         n(get(h.ecc_aggregate_corrected)) + " in the GPU's life");
  if (h.ecc_mode_current && h.ecc_mode_pending && *h.ecc_mode_current != *h.ecc_mode_pending)
    r.warnings.push_back(std::string("ECC is ") + (*h.ecc_mode_current ? "on" : "off") +
                         " and will be " + (*h.ecc_mode_pending ? "on" : "off") +
                         " after the next reboot");
}

void retirement(const NvmlHealth& h, HealthReading& r) {
  const std::uint64_t retired = get(h.retired_pages_single_bit) + get(h.retired_pages_double_bit);
  if (h.retired_pages_pending.value_or(false)) {
    r.failing.push_back(
        "memory pages are pending retirement: they are retired at the next reboot "
        "(or driver reload)");
    r.needs_reset = true;
  }
  if (retired >= kRetiredPagesReplaceAt) {
    r.failing.push_back(n(retired) + " retired pages, at or over NVIDIA's replacement budget of " +
                        n(kRetiredPagesReplaceAt));
    r.replace = true;
  } else if (retired > 0) {
    r.warnings.push_back(n(retired) + " retired page(s) (" + n(get(h.retired_pages_single_bit)) +
                         " for single-bit, " + n(get(h.retired_pages_double_bit)) +
                         " for double-bit errors)");
  }
}

void remapping(const NvmlHealth& h, HealthReading& r) {
  if (h.remapped_rows_failed.value_or(false)) {
    r.failing.push_back("a row remap failed: the GPU can no longer repair its failing memory");
    r.replace = true;
  }
  if (h.remapped_rows_pending.value_or(false)) {
    r.failing.push_back("row remapping pending: a GPU reset applies it (" +
                        n(get(h.remapped_rows_uncorrectable)) +
                        " row(s) remapped for uncorrectable errors)");
    r.needs_reset = true;
  } else if (get(h.remapped_rows_uncorrectable) > 0 || get(h.remapped_rows_correctable) > 0) {
    r.warnings.push_back(n(get(h.remapped_rows_uncorrectable)) +
                         " row(s) remapped for uncorrectable and " +
                         n(get(h.remapped_rows_correctable)) + " for correctable errors");
  }
}

std::string recovery_text(int action) {
  switch (action) {
    case recovery_action::kGpuReset: return "GPU reset required";
    case recovery_action::kNodeReboot: return "node reboot required";
    case recovery_action::kDrainP2p: return "drain peer-to-peer traffic";
    case recovery_action::kDrainAndReset: return "drain peer-to-peer traffic, then reset the GPU";
    default: return "recovery action " + std::to_string(action);
  }
}

}  // namespace

std::vector<XidEvent> xid_events(const Facts& f) {
  std::vector<XidEvent> out;
  if (!f.kernel.log_lines.present()) return out;
  const auto& lines = f.kernel.log_lines.value;
  const ModuleReloads reloads(lines);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // "GPU has fallen off the bus" is Xid 79's text (NVIDIA's Xid catalog); some drivers and log
    // forwarders print it without the "Xid (PCI:...): 79" prefix, and it is no less a lost GPU.
    auto xid = xid_code(lines[i]);
    if (!xid && lines[i].find("fallen off the bus") != std::string::npos) xid = 79;
    if (!xid) continue;
    XidEvent e;
    e.xid = *xid;
    e.line = lines[i];
    const auto named = bdfs_in_line(lines[i]);
    if (!named.empty()) e.gpu = named.front();
    e.info = find_xid(*xid);
    e.severity = e.info != nullptr ? e.info->severity : XidSeverity::kApplication;
    if (e.info != nullptr && e.info->action == XidAction::kNvlinkWorkflow &&
        nonfatal_nvlink_line(lines[i]))
      e.severity = XidSeverity::kApplication;  // the link recovered by itself
    if (*xid == 154) {
      const auto action = recovery_action_in_line(lines[i]);
      e.severity = action && *action != 0 ? XidSeverity::kFailing : XidSeverity::kInformational;
    }
    e.current = !reloads.after(i);
    out.push_back(e);
  }
  return out;
}

FailingXids failing_xids(const Facts& f) {
  FailingXids x;
  for (const auto& e : xid_events(f)) {
    if (!e.current || e.severity != XidSeverity::kFailing || e.info == nullptr) continue;
    if (e.xid == 79 || e.xid == 119 || e.xid == 120) continue;
    const bool memory = e.info->action == XidAction::kMemoryWorkflow || e.xid == 64 ||
                        e.xid == 94 || e.xid == 95 || e.xid == 140;
    if (memory)
      x.memory.push_back(e);
    else if (e.info->action == XidAction::kNvlinkWorkflow)
      x.nvlink.push_back(e);
    else
      x.reset.push_back(e);
  }
  return x;
}

HealthReading memory_reading(const GpuView& g) {
  HealthReading r;
  r.gpu = g.bdf;
  if (g.nvml != nullptr && g.nvml->health) {
    ecc_counts(*g.nvml->health, r);
    retirement(*g.nvml->health, r);
    remapping(*g.nvml->health, r);
  }
  if (g.cuda != nullptr && g.cuda->context_result.value_or(0) == 214) {
    r.failing.push_back("CUDA refuses a context on it: " + cu_result_name(214));
    r.needs_reset = true;
  }
  return r;
}

HealthReading recovery_reading(const GpuView& g) {
  HealthReading r;
  r.gpu = g.bdf;
  if (g.nvml == nullptr || !g.nvml->health) return r;
  const NvmlHealth& h = *g.nvml->health;
  if (h.recovery_action && *h.recovery_action != recovery_action::kNone) {
    r.failing.push_back("NVML's recovery action: " + recovery_text(*h.recovery_action));
    r.needs_reset = *h.recovery_action != recovery_action::kDrainP2p;
    r.needs_reboot = *h.recovery_action == recovery_action::kNodeReboot;
  }
  for (const auto& [query, code] : h.query_errors)
    if (code == 15 || code == 16) {
      r.failing.push_back(query + ": " + nvml_return_name(code));
      r.needs_reset = true;
      r.needs_reboot = r.needs_reboot || code == 15;
    }
  return r;
}

HealthReading throttle_reading(const GpuView& g) {
  HealthReading r;
  r.gpu = g.bdf;
  if (g.nvml == nullptr || !g.nvml->health) return r;
  const NvmlHealth& h = *g.nvml->health;
  const std::uint64_t bits = h.clock_event_reasons.value_or(0);
  const std::pair<std::uint64_t, const char*> reasons[] = {
      {clock_event::kHwSlowdown, "HW slowdown"},
      {clock_event::kHwThermalSlowdown, "HW thermal slowdown"},
      {clock_event::kHwPowerBrakeSlowdown, "HW power brake"},
      {clock_event::kSwThermalSlowdown, "SW thermal slowdown"}};
  for (const auto& [bit, name] : reasons)
    if (bits & bit) r.warnings.push_back(std::string(name) + " active now");
  for (const auto& [name, ns] : h.clock_event_ns)
    if (ns > 0 && name != "sw_power_cap")
      r.warnings.push_back(name + " held the clocks down for " + duration_text(ns) +
                           " since the driver loaded");
  if (h.temperature_c && h.temperature_slowdown_c && *h.temperature_c >= *h.temperature_slowdown_c)
    r.warnings.push_back(std::to_string(*h.temperature_c) +
                         " C, at or over the slowdown threshold " +
                         std::to_string(*h.temperature_slowdown_c) + " C");
  return r;
}

LostDevices lost_devices(const Facts& f) {
  LostDevices out;
  for (const auto& d : f.nvml.devices) {
    if (!d.pci_bus_id.empty() || !d.health) continue;
    for (const auto& [query, code] : d.health->query_errors)
      out.nvml_devices.push_back("NVML device " + std::to_string(d.index) + ": " + query + " = " +
                                 nvml_return_name(code));
  }
  if (out.nvml_devices.empty()) return out;
  for (const auto& g : gpus(f))
    if (g.pci != nullptr && g.nvml == nullptr && g.pci->driver.present() &&
        g.pci->driver.value == "nvidia")
      out.gpus.push_back(g.bdf);
  return out;
}

bool health_collected(const Facts& f) {
  return std::any_of(f.nvml.devices.begin(), f.nvml.devices.end(),
                     [](const NvmlDevice& d) { return d.health.has_value(); });
}

std::string duration_text(std::uint64_t ns) {
  const double s = static_cast<double>(ns) / 1e9;
  if (s < 60) {
    const long tenths = std::lround(s * 10);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
  }
  if (s < 3600) return std::to_string(static_cast<long long>(s / 60)) + " min";
  return std::to_string(static_cast<long long>(s / 3600)) + " h";
}

}  // namespace p2p::doctor

namespace p2p::doctor {

std::string memory_fix(const std::vector<HealthReading>& failing) {
  std::vector<std::string> replace, reset;
  for (const auto& r : failing) (r.replace ? replace : reset).push_back(r.gpu);
  std::string fix;
  if (!replace.empty())
    fix = "replace " + join(replace) +
          " (RMA): NVIDIA's replacement criteria are met; until then "
          "keep jobs off it";
  if (!reset.empty()) {
    const std::string first = reset.front();
    if (!fix.empty()) fix += "; ";
    fix += "reset " + join(reset) + " (nvidia-smi -r -i " + first +
           ", no process may use it) or reboot the node, so that the driver retires or remaps the "
           "failing memory (pages pending retirement need a reboot or a driver reload); run the "
           "workload again, and replace the GPU (RMA) if uncorrectable errors recur";
  }
  return fix;
}

std::string reset_fix(const std::vector<std::string>& gpus, bool reboot) {
  const std::string first = gpus.empty() ? std::string("<bdf>") : gpus.front();
  if (reboot)
    return "reboot the node (power it off and on if the GPU does not come back): the driver asks "
           "for it; if it recurs, have " +
           (gpus.empty() ? std::string("the GPU") : join(gpus)) + " checked (RMA)";
  return "reset " + (gpus.empty() ? std::string("the GPU") : join(gpus)) + " (nvidia-smi -r -i " +
         first +
         ", no process may use it; GeForce cards and GPUs in use need a reboot instead) or "
         "reboot the node; if it asks again, have the GPU checked (RMA)";
}

}  // namespace p2p::doctor
