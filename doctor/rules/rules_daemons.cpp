// The host daemons peer traffic relies on: Fabric Manager on NVSwitch systems (fabric_manager)
// and persistence, which keeps each GPU initialised between clients (persistence).
#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/rules/rules_p2p_checks.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

// Whether the process list was read and shows `name` running.
bool daemon_running(const Facts& f, const char* name) {
  return f.daemons.present() &&
         std::find(f.daemons.value.begin(), f.daemons.value.end(), name) != f.daemons.value.end();
}

// Whether /dev holds an NVSwitch node: a sign of NVSwitches even where the PCI bus shows none.
bool nvswitch_node(const Facts& f) {
  bool switch_node = false;
  if (f.device_nodes.present())
    for (const auto& n : f.device_nodes.value)
      switch_node = switch_node || n.path.rfind("/dev/nvidia-nvswitch", 0) == 0;
  return switch_node;
}

// Each GPU's fabric registration as NVML reports it, one evidence line per GPU that has one.
struct FabricRegistration {
  int completed = 0;
  std::vector<std::string> bad;  // bus ids of GPUs whose registration did not complete
};

FabricRegistration fabric_registration(const Facts& f, std::vector<std::string>& ev) {
  FabricRegistration r;
  for (const auto& d : f.nvml.devices) {
    if (!d.fabric_state) continue;
    ev.push_back(d.pci_bus_id + " fabric " + fabric_state_name(*d.fabric_state) +
                 (d.fabric_status ? " status " + nvml_return_name(*d.fabric_status) : ""));
    if (*d.fabric_state == 3 && d.fabric_status.value_or(0) == 0)
      ++r.completed;
    else
      r.bad.push_back(d.pci_bus_id);
  }
  return r;
}

}  // namespace

Finding check_fabric_manager(const Facts& f) {
  const auto switches = nvswitches(f);
  if (switches.empty() && !nvswitch_node(f))
    return finding("fabric_manager", Status::kSkip, "no NVSwitch: no Fabric Manager needed");
  std::vector<std::string> ev{std::to_string(switches.size()) +
                              " NVSwitch function(s) on the PCI bus"};
  const FabricRegistration reg = fabric_registration(f, ev);
  const bool daemon_seen = daemon_running(f, "nv-fabricmanager");
  if (f.daemons.present())
    ev.push_back(std::string("nv-fabricmanager process: ") +
                 (daemon_seen ? "running" : "not seen"));
  const auto init = cuinit_result(f);
  const FabricManagerLog fm = fabric_manager_log(f);
  const auto driver = module_version(f);
  if (fm.version)
    ev.push_back("Fabric Manager version " + *fm.version + " (" + f.fabric_manager.log_path + ")");
  for (const auto& l : fm.mismatch) ev.push_back(f.fabric_manager.log_path + ": " + l);
  // Fabric Manager refuses to run against a driver of another release and exits: the daemon is
  // then simply "not running", and only its log says why.
  if (fm.version && driver && *fm.version != *driver) {
    return finding(
        "fabric_manager", Status::kFail,
        "Fabric Manager " + *fm.version + " does not match the driver " + *driver +
            ": it exits at start" +
            (init && *init == 802 ? " (cuInit = 802 SYSTEM_NOT_READY)" : ""),
        ev,
        "install nvidia-fabricmanager of exactly " + *driver +
            " (the package of the same driver branch and version; hold both so upgrades move them together), "
            "then systemctl restart nvidia-fabricmanager");
  }
  const std::string hint =
      "start nvidia-fabricmanager at the driver's exact version (systemctl enable --now nvidia-fabricmanager)";
  if (init && *init == 802)
    return finding("fabric_manager", Status::kFail,
                   "cuInit = 802 SYSTEM_NOT_READY on an NVSwitch system: Fabric Manager not ready",
                   ev, hint);
  if (!reg.bad.empty())
    return finding(
        "fabric_manager", Status::kFail,
        "GPU fabric registration not completed on " + std::to_string(reg.bad.size()) + " GPU(s)",
        ev, hint);
  if (f.daemons.present() && !daemon_seen && !in_container(f) && reg.completed == 0)
    return finding("fabric_manager", Status::kFail,
                   "NVSwitch present but nv-fabricmanager is not running", ev, hint);
  if (reg.completed > 0)
    return finding("fabric_manager", Status::kPass,
                   "fabric registration completed on " + std::to_string(reg.completed) + " GPU(s)",
                   ev);
  return finding("fabric_manager", Status::kUnknown, "NVSwitch present; fabric state unknown", ev,
                 "check on the host: systemctl status nvidia-fabricmanager");
}

Finding check_persistence(const Facts& f) {
  std::vector<std::string> ev, off;
  int on = 0;
  for (const auto& d : f.nvml.devices) {
    if (!d.persistence_mode) continue;
    if (*d.persistence_mode == 1)
      ++on;
    else
      off.push_back(d.pci_bus_id);
  }
  const bool daemon = daemon_running(f, "nvidia-persistenced");
  if (f.daemons.present())
    ev.push_back(std::string("nvidia-persistenced: ") + (daemon ? "running" : "not seen"));
  if (on + off.size() == 0) {
    if (daemon) return finding("persistence", Status::kPass, "nvidia-persistenced running", ev);
    if (!nvml_works(f)) return finding("persistence", Status::kSkip, "NVML not available", ev);
    return finding("persistence", gpus(f).empty() ? Status::kSkip : Status::kUnknown,
                   "persistence mode unknown", ev);
  }
  ev.push_back(std::to_string(on) + " GPU(s) with persistence on, " + std::to_string(off.size()) +
               " off");
  if (!off.empty())
    return finding(
        "persistence", Status::kWarn,
        "persistence off on " + std::to_string(off.size()) +
            " GPU(s): every first client re-initialises GSP",
        ev, "run nvidia-persistenced on the host (systemctl enable --now nvidia-persistenced)");
  return finding("persistence", Status::kPass,
                 "persistence mode on for all " + std::to_string(on) + " GPU(s)", ev);
}

}  // namespace p2p::doctor::rules
