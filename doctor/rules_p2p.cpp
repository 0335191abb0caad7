// What stands between two GPUs: IOMMU translation, ACS redirection, what NVML reports per
// pair, the fabric manager on NVSwitch systems, and persistence.
#include <algorithm>
#include <set>
#include <sstream>

#include "doctor/codes.hpp"
#include "doctor/derived.hpp"
#include "doctor/rules.hpp"
#include "doctor/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

// ACS control bits that send peer requests up to the root complex (pci_regs.h PCI_ACS_RR/CR/EC).
constexpr int kAcsRequestRedirect = 0x04;
constexpr int kAcsCompletionRedirect = 0x08;
constexpr int kAcsEgressControl = 0x20;

std::string acs_text(int ctrl) {
  std::ostringstream s;
  s << "0x" << std::hex << ctrl << std::dec << " (ReqRedir" << ((ctrl & kAcsRequestRedirect) ? '+' : '-')
    << " CmpltRedir" << ((ctrl & kAcsCompletionRedirect) ? '+' : '-') << " EgressCtrl"
    << ((ctrl & kAcsEgressControl) ? '+' : '-') << ")";
  return s.str();
}

std::vector<std::string> cmdline_iommu_flags(const Facts& f) {
  std::vector<std::string> out;
  if (!f.kernel.cmdline.present()) return out;
  std::istringstream in(f.kernel.cmdline.value);
  for (std::string w; in >> w;)
    if (w.rfind("intel_iommu=", 0) == 0 || w.rfind("amd_iommu=", 0) == 0 || w.rfind("iommu=", 0) == 0 ||
        w.rfind("iommu.passthrough=", 0) == 0 || w.rfind("pci=disable_acs_redir", 0) == 0)
      out.push_back(w);
  return out;
}

Finding check_iommu(const Facts& f) {
  const auto& io = f.iommu;
  std::vector<std::string> ev;
  const auto flags = cmdline_iommu_flags(f);
  ev.push_back("cmdline: " + (flags.empty() ? std::string("no iommu flags") : join(flags, " ")));
  if (io.units.present()) ev.push_back("/sys/class/iommu: " + (io.units.value.empty() ? std::string("empty") : join(io.units.value)));
  if (io.group_types.present())
    for (const auto& [type, n] : io.group_types.value) ev.push_back("iommu groups of type " + type + ": " + std::to_string(n));
  std::vector<std::string> translating;
  for (const auto& g : gpus(f))
    if (g.pci != nullptr && g.pci->iommu_group_type && g.pci->iommu_group_type->rfind("DMA", 0) == 0)
      translating.push_back(g.bdf + " " + *g.pci->iommu_group_type);
  // Without per-GPU group types, translating groups anywhere on an IOMMU-enabled host count.
  if (translating.empty() && io.units.present() && !io.units.value.empty() && io.group_types.present()) {
    bool gpu_types_known = false;
    for (const auto& g : gpus(f)) gpu_types_known = gpu_types_known || (g.pci != nullptr && g.pci->iommu_group_type);
    if (!gpu_types_known)
      for (const auto& [type, n] : io.group_types.value)
        if (type.rfind("DMA", 0) == 0) translating.push_back(std::to_string(n) + " group(s) " + type);
  }
  if (!io.units.present() && translating.empty())
    return finding("iommu", Status::kUnknown, std::string("/sys/class/iommu ") + to_string(io.units.seen), ev);
  if (!translating.empty())
    return finding("iommu", Status::kWarn,
                   "IOMMU translates DMA (" + join_some(translating) +
                       "): peer traffic is remapped, a classic cause of slow or hanging P2P",
                   ev, "boot with iommu=pt if the host still needs VFIO, otherwise turn the IOMMU off");
  if (io.units.value.empty()) return finding("iommu", Status::kPass, "IOMMU off (no units in /sys/class/iommu)", ev);
  return finding("iommu", Status::kPass, "IOMMU on in passthrough (identity) mode for the GPUs", ev);
}

Finding check_acs(const Facts& f) {
  const auto all = gpus(f);
  if (all.size() < 2) return finding("pcie.acs", Status::kSkip, "fewer than two GPUs: no peer path to check");
  std::vector<std::string> ev, redirecting, unreadable;
  std::set<std::string> seen;
  int bridges = 0;
  bool pci_known = false;
  for (const auto& g : all) {
    if (g.pci == nullptr) continue;
    pci_known = true;
    for (const auto& b : g.pci->upstream) {
      if (!seen.insert(b.bdf).second) continue;
      ++bridges;
      if (b.acs_control.present()) {
        ev.push_back(b.bdf + " ACSCtl " + acs_text(b.acs_control.value));
        if (b.acs_control.value & (kAcsRequestRedirect | kAcsCompletionRedirect | kAcsEgressControl))
          redirecting.push_back(b.bdf);
      } else if (b.acs_control.absent()) {
        ev.push_back(b.bdf + " no ACS capability");
      } else {
        ev.push_back(b.bdf + " config space " + to_string(b.acs_control.seen) +
                     (b.acs_control.error.empty() ? "" : " (" + b.acs_control.error + ")"));
        unreadable.push_back(b.bdf);
      }
    }
  }
  if (!pci_known) return finding("pcie.acs", Status::kUnknown, "GPUs not found in /sys/bus/pci");
  if (!redirecting.empty())
    return finding("pcie.acs", Status::kFail,
                   "ACS redirects peer traffic to the root complex on " + std::to_string(redirecting.size()) +
                       " bridge(s): " + join_some(redirecting),
                   ev,
                   "disable ACS in the BIOS, or boot with pci=disable_acs_redir=<bdf>, or clear it with setpci at boot "
                   "(weakens isolation, which matters for VFIO)");
  if (!unreadable.empty())
    return finding("pcie.acs", Status::kUnknown,
                   "ACS of " + std::to_string(unreadable.size()) + " bridge(s) unreadable: full config space needs CAP_SYS_ADMIN "
                   "in the initial user namespace",
                   ev, "run as root on the host: lspci -vvv | grep ACSCtl");
  if (bridges == 0) return finding("pcie.acs", Status::kPass, "no PCIe bridges between the GPUs and their root", ev);
  return finding("pcie.acs", Status::kPass, "no ACS redirection on the " + std::to_string(bridges) + " bridge(s) above the GPUs", ev);
}

Finding check_p2p_status(const Facts& f) {
  const auto& n = f.nvml;
  if (n.status != "completed" || !n.init_result || *n.init_result != 0)
    return finding("p2p.status", Status::kSkip, "NVML not available");
  if (n.device_count.value_or(0) < 2) return finding("p2p.status", Status::kSkip, "fewer than two GPUs");
  if (n.pairs.empty()) return finding("p2p.status", Status::kUnknown, "NVML P2P status not recorded");
  std::vector<std::string> ev, bad;
  std::set<std::string> reasons;
  int ok = 0, nvlink = 0, regkey = 0;
  std::set<int> ancestors;
  for (const auto& p : n.pairs) {
    const auto word = [](const std::optional<int>& s) { return s ? p2p_status_short(*s) : std::string("?"); };
    std::string line = "GPU" + std::to_string(p.a) + "-GPU" + std::to_string(p.b) + " read " + word(p.read) + " write " +
                       word(p.write) + " nvlink " + word(p.nvlink);
    if (p.common_ancestor) {
      line += " via " + topology_level_name(*p.common_ancestor);
      ancestors.insert(*p.common_ancestor);
    }
    ev.push_back(line);
    if (p.nvlink && *p.nvlink == 0) ++nvlink;
    const bool good = p.read && *p.read == 0 && p.write && *p.write == 0;
    if (good) {
      ++ok;
      continue;
    }
    bad.push_back("GPU" + std::to_string(p.a) + "-GPU" + std::to_string(p.b));
    for (const auto& s : {p.read, p.write})
      if (s && *s != 0) {
        reasons.insert(p2p_status_name(*s));
        if (*s == 4) ++regkey;
      }
  }
  const std::string total = std::to_string(n.pairs.size());
  if (bad.empty())
    return finding("p2p.status", Status::kPass,
                   "P2P read/write OK on all " + total + " pair(s)" +
                       (nvlink ? " (" + std::to_string(nvlink) + " over NVLink)" : std::string()),
                   ev);
  std::vector<std::string> reason_list(reasons.begin(), reasons.end());
  const std::string summary = "P2P not available on " + std::to_string(bad.size()) + " of " + total + " pair(s): " +
                              join(reason_list);
  if (in_vm_passthrough(f) && regkey == 0) {
    const bool phb = ancestors.size() == 1 && *ancestors.begin() == 30;
    return finding("p2p.status", Status::kWarn,
                   summary + " - expected in a VFIO guest" + (phb ? " (PHB on every pair: emulated root ports)" : ""), ev,
                   "for P2P, run the workload on the host or in an LXC container with the GPUs' real topology");
  }
  std::string hint = "see pcie.acs, iommu and module.params";
  if (regkey) hint = "DISABLED_BY_REGKEY: remove ForceP2P/RM P2P overrides from NVreg_RegistryDwords";
  if (reasons.count("GPU_NOT_SUPPORTED"))
    hint += "; GPU_NOT_SUPPORTED: the driver does not enable P2P for this GPU model over PCIe (e.g. GeForce)";
  return finding("p2p.status", Status::kFail, summary, ev, hint);
}

Finding check_fabric_manager(const Facts& f) {
  const auto switches = nvswitches(f);
  bool switch_node = false;
  if (f.device_nodes.present())
    for (const auto& n : f.device_nodes.value) switch_node = switch_node || n.path.rfind("/dev/nvidia-nvswitch", 0) == 0;
  if (switches.empty() && !switch_node)
    return finding("fabric_manager", Status::kSkip, "no NVSwitch: no Fabric Manager needed");
  std::vector<std::string> ev{std::to_string(switches.size()) + " NVSwitch function(s) on the PCI bus"};
  std::vector<std::string> bad;
  int completed = 0;
  for (const auto& d : f.nvml.devices) {
    if (!d.fabric_state) continue;
    ev.push_back(d.pci_bus_id + " fabric " + fabric_state_name(*d.fabric_state) +
                 (d.fabric_status ? " status " + nvml_return_name(*d.fabric_status) : ""));
    if (*d.fabric_state == 3 && d.fabric_status.value_or(0) == 0) ++completed;
    else bad.push_back(d.pci_bus_id);
  }
  const bool daemon_seen = f.daemons.present() && std::find(f.daemons.value.begin(), f.daemons.value.end(),
                                                            "nv-fabricmanager") != f.daemons.value.end();
  if (f.daemons.present()) ev.push_back(std::string("nv-fabricmanager process: ") + (daemon_seen ? "running" : "not seen"));
  const auto init = cuinit_result(f);
  const std::string hint = "start nvidia-fabricmanager at the driver's exact version (systemctl enable --now nvidia-fabricmanager)";
  if (init && *init == 802)
    return finding("fabric_manager", Status::kFail, "cuInit = 802 SYSTEM_NOT_READY on an NVSwitch system: Fabric Manager not ready",
                   ev, hint);
  if (!bad.empty())
    return finding("fabric_manager", Status::kFail,
                   "GPU fabric registration not completed on " + std::to_string(bad.size()) + " GPU(s)", ev, hint);
  if (f.daemons.present() && !daemon_seen && !in_container(f) && completed == 0)
    return finding("fabric_manager", Status::kFail, "NVSwitch present but nv-fabricmanager is not running", ev, hint);
  if (completed > 0) return finding("fabric_manager", Status::kPass, "fabric registration completed on " + std::to_string(completed) + " GPU(s)", ev);
  return finding("fabric_manager", Status::kUnknown, "NVSwitch present; fabric state unknown", ev,
                 "check on the host: systemctl status nvidia-fabricmanager");
}

Finding check_persistence(const Facts& f) {
  std::vector<std::string> ev, off;
  int on = 0;
  for (const auto& d : f.nvml.devices) {
    if (!d.persistence_mode) continue;
    if (*d.persistence_mode == 1) ++on;
    else off.push_back(d.pci_bus_id);
  }
  const bool daemon = f.daemons.present() && std::find(f.daemons.value.begin(), f.daemons.value.end(),
                                                       "nvidia-persistenced") != f.daemons.value.end();
  if (f.daemons.present()) ev.push_back(std::string("nvidia-persistenced: ") + (daemon ? "running" : "not seen"));
  if (on + off.size() == 0) {
    if (daemon) return finding("persistence", Status::kPass, "nvidia-persistenced running", ev);
    if (!nvml_works(f)) return finding("persistence", Status::kSkip, "NVML not available", ev);
    return finding("persistence", gpus(f).empty() ? Status::kSkip : Status::kUnknown, "persistence mode unknown", ev);
  }
  ev.push_back(std::to_string(on) + " GPU(s) with persistence on, " + std::to_string(off.size()) + " off");
  if (!off.empty())
    return finding("persistence", Status::kWarn,
                   "persistence off on " + std::to_string(off.size()) + " GPU(s): every first client re-initialises GSP",
                   ev, "run nvidia-persistenced on the host (systemctl enable --now nvidia-persistenced)");
  return finding("persistence", Status::kPass, "persistence mode on for all " + std::to_string(on) + " GPU(s)", ev);
}

}  // namespace

void p2p(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_iommu(f));
  out.push_back(check_acs(f));
  out.push_back(check_p2p_status(f));
  out.push_back(check_fabric_manager(f));
  out.push_back(check_persistence(f));
}

}  // namespace p2p::doctor::rules
