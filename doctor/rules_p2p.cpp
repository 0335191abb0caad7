// What stands between two GPUs: IOMMU translation, ACS redirection, what NVML reports per
// pair, the fabric manager on NVSwitch systems, and persistence.
#include <algorithm>
#include <set>
#include <sstream>

#include "doctor/codes.hpp"
#include "doctor/derived.hpp"
#include "doctor/rules.hpp"
#include "doctor/rules_util.hpp"
#include "doctor/vfio_guest.hpp"

namespace p2p::doctor::rules {

namespace {

// ACS control bits that send peer requests up to the root complex (pci_regs.h PCI_ACS_RR/CR/EC).
constexpr int kAcsRequestRedirect = 0x04;
constexpr int kAcsCompletionRedirect = 0x08;
constexpr int kAcsEgressControl = 0x20;

std::string acs_text(int ctrl) {
  std::ostringstream s;
  s << "0x" << std::hex << ctrl << std::dec << " (ReqRedir"
    << ((ctrl & kAcsRequestRedirect) ? '+' : '-') << " CmpltRedir"
    << ((ctrl & kAcsCompletionRedirect) ? '+' : '-') << " EgressCtrl"
    << ((ctrl & kAcsEgressControl) ? '+' : '-') << ")";
  return s.str();
}

Finding check_iommu(const Facts& f) {
  const auto& io = f.iommu;
  const IommuState st = iommu_state(f);
  const LogSignals log = log_signals(f);
  std::vector<std::string> ev;
  ev.push_back("cmdline: " +
               (st.flags.empty() ? std::string("no iommu flags") : join(st.flags, " ")));
  if (io.units.present())
    ev.push_back("/sys/class/iommu: " +
                 (io.units.value.empty() ? std::string("empty") : join(io.units.value)));
  if (io.group_types.present())
    for (const auto& [type, n] : io.group_types.value)
      ev.push_back("iommu groups of type " + type + ": " + std::to_string(n));
  for (const auto& l : log.iommu_faults) ev.push_back("kernel log: " + l);
  const std::string mode = std::string("IOMMU ") + to_string(st.mode);
  // A fault names the device whose DMA the IOMMU refused: on a GPU that is peer traffic (or
  // host traffic) being dropped, which outranks any setting that merely allows it.
  const auto faulting = gpus_named(f, log.iommu_faults);
  const std::string fix_pt =
      "boot with iommu=pt (keeps the IOMMU for VFIO but stops translating host devices' DMA), or turn "
      "the IOMMU off (amd_iommu=off / intel_iommu=off) where no VM needs it; then reboot";
  if (!faulting.empty())
    return finding("iommu", Status::kFail,
                   mode + ": the IOMMU refused DMA from " + std::to_string(faulting.size()) +
                       " GPU(s) (" + join_some(faulting) + ", " +
                       std::to_string(log.iommu_faults.size()) +
                       " fault line(s)): peer writes are being dropped",
                   ev, fix_pt);
  if (!log.iommu_faults.empty() && st.mode == IommuState::Mode::kTranslated)
    return finding("iommu", Status::kWarn,
                   mode + " (" + join_some(st.translating) +
                       "), with IOMMU faults in the kernel log that name no GPU",
                   ev, fix_pt);
  if (st.mode == IommuState::Mode::kUnknown)
    return finding("iommu", Status::kUnknown,
                   std::string("/sys/class/iommu ") + to_string(io.units.seen), ev);
  if (st.mode == IommuState::Mode::kTranslated)
    return finding("iommu", Status::kWarn,
                   "IOMMU translates DMA (" + join_some(st.translating) +
                       "): peer traffic is remapped, a classic cause of slow or hanging P2P",
                   ev,
                   "boot with iommu=pt if the host still needs VFIO, otherwise turn the IOMMU off "
                   "(intel_iommu=off / amd_iommu=off); then reboot");
  if (st.mode == IommuState::Mode::kOff)
    return finding("iommu", Status::kPass, "IOMMU off (no units in /sys/class/iommu)", ev);
  return finding("iommu", Status::kPass, "IOMMU on in passthrough (identity) mode for the GPUs",
                 ev);
}

// The bridges where peer traffic between two GPUs turns: below their deepest common bridge, the
// first bridge on each side (a switch's downstream ports). ACS redirection there sends the
// traffic up to the root complex. GPUs under different root ports meet in the root complex
// anyway, so ACS on their root ports changes nothing (the IOMMU decides there). nullopt when a
// GPU's path is not known.
std::optional<std::set<std::string>> turning_bridges(const std::vector<GpuView>& all) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      if (all[i].pci == nullptr || all[j].pci == nullptr) return std::nullopt;
      const auto& a = all[i].pci->upstream;
      const auto& b = all[j].pci->upstream;
      std::size_t common = 0;
      while (common < a.size() && common < b.size() && a[common].bdf == b[common].bdf) ++common;
      if (common == 0) continue;
      if (common < a.size()) out.insert(a[common].bdf);
      if (common < b.size()) out.insert(b[common].bdf);
    }
  return out;
}

bool redirects(const Bridge& b) {
  return b.acs_control.present() &&
         (b.acs_control.value &
          (kAcsRequestRedirect | kAcsCompletionRedirect | kAcsEgressControl)) != 0;
}

// The root ports of GPU pairs that hang off different root ports of the same NUMA node (or of
// unknown ones): pairs whose peer traffic crosses one root complex from port to port.
std::set<std::string> shared_complex_root_ports(const std::vector<GpuView>& all) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      const PciFunction* a = all[i].pci;
      const PciFunction* b = all[j].pci;
      if (a == nullptr || b == nullptr || a->upstream.empty() || b->upstream.empty()) continue;
      const Bridge& ra = a->upstream.front();
      const Bridge& rb = b->upstream.front();
      if (ra.bdf == rb.bdf) continue;  // one root port: the turning bridges decide
      if (a->numa_node && b->numa_node && *a->numa_node != *b->numa_node) continue;
      out.insert(ra.bdf);
      out.insert(rb.bdf);
    }
  return out;
}

Finding check_acs(const Facts& f) {
  const auto all = gpus(f);
  if (all.size() < 2)
    return finding("pcie.acs", Status::kSkip, "fewer than two GPUs: no peer path to check");
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
        if (redirects(b)) redirecting.push_back(b.bdf);
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
  const auto turning = turning_bridges(all);
  std::vector<std::string> in_path;
  for (const auto& b : redirecting)
    if (!turning || turning->count(b)) in_path.push_back(b);
  if (!in_path.empty())
    return finding(
        "pcie.acs", Status::kFail,
        "ACS redirects peer traffic to the root complex on " + std::to_string(redirecting.size()) +
            " bridge(s): " + join_some(redirecting),
        ev,
        "disable ACS in the BIOS, or boot with pci=disable_acs_redir=" + join(in_path, ";") +
            ", or clear it at boot with setpci -s <bdf> ECAP_ACS+6.w=0000 on each (weakens isolation, which matters "
            "for VFIO)");
  const auto complex_ports = shared_complex_root_ports(all);
  bool unreadable_in_path = false;
  for (const auto& b : unreadable)
    unreadable_in_path =
        unreadable_in_path || !turning || turning->count(b) || complex_ports.count(b);
  if (unreadable_in_path)
    return finding("pcie.acs", Status::kUnknown,
                   "ACS of " + std::to_string(unreadable.size()) +
                       " bridge(s) unreadable: full config space needs CAP_SYS_ADMIN "
                       "in the initial user namespace",
                   ev, "run as root on the host: lspci -vvv | grep ACSCtl");
  // Root ports of GPUs that meet in one root complex: with request redirection on, peer requests
  // between them go up to the IOMMU instead of across the root complex, and NCCL has been seen to
  // hang there until ACS was cleared. GPUs on different NUMA nodes cross the socket link anyway.
  std::vector<std::string> ports;
  for (const auto& b : redirecting)
    if (complex_ports.count(b)) ports.push_back(b);
  if (!ports.empty())
    return finding(
        "pcie.acs", Status::kWarn,
        "ACS redirection on the root ports of GPUs that meet in the root complex (" +
            join_some(ports) +
            "): peer requests detour through the IOMMU instead of crossing the root complex",
        ev,
        "if P2P hangs or is slow, clear ACS on those root ports: setpci -s <bdf> ECAP_ACS+6.w=0000 for " +
            join(ports) + " (until reboot; pci=disable_acs_redir=" + join(ports, ";") +
            " at boot), or disable ACS in the BIOS (weakens isolation, which matters for VFIO)");
  if (turning && turning->empty())
    return finding(
        "pcie.acs", Status::kPass,
        "no two GPUs share a bridge and no root port between them redirects: their peer traffic meets in the root "
        "complex" +
            (redirecting.empty()
                 ? std::string()
                 : " (ACS redirection set on " + join_some(redirecting) + ", harmless here)") +
            (unreadable.empty()
                 ? std::string()
                 : " (" + std::to_string(unreadable.size()) + " bridge(s) unreadable, not needed)"),
        ev);
  if (!redirecting.empty())
    return finding(
        "pcie.acs", Status::kPass,
        "ACS redirection on " + std::to_string(redirecting.size()) + " bridge(s) (" +
            join_some(redirecting) +
            ") where no GPU pair turns: their peer traffic meets in the root complex anyway",
        ev);
  if (bridges == 0)
    return finding("pcie.acs", Status::kPass, "no PCIe bridges between the GPUs and their root",
                   ev);
  return finding(
      "pcie.acs", Status::kPass,
      "no ACS redirection on the " + std::to_string(bridges) + " bridge(s) above the GPUs", ev);
}

// Every pair without P2P joins two GeForce cards that the driver gives no PCIe P2P, and no pair is
// refused for the platform's reasons (topology, regkey): the product, not the host, says no.
bool geforce_pcie_limit(const Facts& f, const std::vector<NvmlPair>& pairs) {
  const auto all = gpus(f);
  const auto limited = [&](int index) {
    for (const auto& g : all)
      if (g.nvml != nullptr && g.nvml->index == index) return geforce_without_pcie_p2p(g);
    return false;
  };
  bool any = false;
  for (const auto& p : pairs) {
    const bool good = p.read && *p.read == 0 && p.write && *p.write == 0;
    if (good) continue;
    for (const auto& s : {p.read, p.write})
      if (s && *s != 1 && *s != 2 && *s != 5 && *s != 0) return false;  // TNS, DR, U: other causes
    if (!limited(p.a) || !limited(p.b)) return false;
    any = true;
  }
  return any;
}

Finding check_p2p_status(const Facts& f) {
  const auto& n = f.nvml;
  if (n.status != ProbeStatus::kCompleted || !n.init_result || *n.init_result != 0)
    return finding("p2p.status", Status::kSkip, "NVML not available");
  if (n.device_count.value_or(0) < 2)
    return finding("p2p.status", Status::kSkip, "fewer than two GPUs");
  if (n.pairs.empty())
    return finding("p2p.status", Status::kUnknown, "NVML P2P status not recorded");
  std::vector<std::string> ev, bad;
  std::set<std::string> reasons;
  int ok = 0, nvlink = 0, regkey = 0;
  std::set<int> ancestors;
  for (const auto& p : n.pairs) {
    const auto word = [](const std::optional<int>& s) {
      return s ? p2p_status_short(*s) : std::string("?");
    };
    std::string line = "GPU" + std::to_string(p.a) + "-GPU" + std::to_string(p.b) + " read " +
                       word(p.read) + " write " + word(p.write) + " nvlink " + word(p.nvlink);
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
  const std::string summary = "P2P not available on " + std::to_string(bad.size()) + " of " +
                              total + " pair(s): " + join(reason_list);
  if (in_wsl(f))
    return finding(
        "p2p.status", Status::kWarn, summary + " - WSL2 offers no peer-to-peer between GPUs", ev,
        "nothing to fix inside WSL2: NCCL moves data through host memory (or fails; "
        "NCCL_P2P_DISABLE=1 makes it fall back cleanly); for P2P run native Linux on the machine");
  if (in_vgpu_guest(f) && regkey == 0)
    return finding(
        "p2p.status", Status::kWarn,
        summary +
            " - vGPU guest: vGPUs have no P2P over PCIe, and over NVLink only as time-sliced vGPUs that own a "
            "whole GPU's framebuffer (not MIG-backed)",
        ev,
        "for P2P give the VM full-framebuffer time-sliced vGPU profiles (e.g. H100-80C) on NVLink-connected GPUs, or "
        "pass the GPUs through whole; otherwise NCCL moves data through host memory");
  if (regkey == 0 && geforce_pcie_limit(f, n.pairs))
    return finding(
        "p2p.status", Status::kWarn,
        summary +
            " - GeForce cards: the driver offers no PCIe P2P on this product (a product limitation, not a "
            "misconfiguration)",
        ev,
        "nothing to fix on this host: NVIDIA's driver enables P2P on GeForce cards since Turing only over an NVLink "
        "bridge; NCCL falls back to host shared memory. For PCIe P2P use workstation or data-centre GPUs");
  if (in_vm_passthrough(f) && regkey == 0) {
    const bool phb = ancestors.size() == 1 && *ancestors.begin() == 30;
    if (auto judged = p2p_status_with_cliques(f, summary, ev)) return *judged;
    return finding(
        "p2p.status", Status::kWarn,
        summary + " - expected in a VFIO guest" +
            (phb ? " (PHB on every pair: emulated root ports)" : ""),
        ev,
        "give the GPUs GPUDirect cliques on the host (see vfio.clique: p2pcheck vm plan there prints "
        "the x-nv-gpudirect-clique settings), or run the workload on the host or in an LXC container");
  }
  std::string hint = "see pcie.acs, iommu and module.params";
  if (regkey)
    hint = "DISABLED_BY_REGKEY: remove ForceP2P/RM P2P overrides from NVreg_RegistryDwords";
  if (reasons.count("GPU_NOT_SUPPORTED"))
    hint +=
        "; GPU_NOT_SUPPORTED: the driver does not enable P2P for this GPU model over PCIe (e.g. GeForce)";
  return finding("p2p.status", Status::kFail, summary, ev, hint);
}

Finding check_fabric_manager(const Facts& f) {
  const auto switches = nvswitches(f);
  bool switch_node = false;
  if (f.device_nodes.present())
    for (const auto& n : f.device_nodes.value)
      switch_node = switch_node || n.path.rfind("/dev/nvidia-nvswitch", 0) == 0;
  if (switches.empty() && !switch_node)
    return finding("fabric_manager", Status::kSkip, "no NVSwitch: no Fabric Manager needed");
  std::vector<std::string> ev{std::to_string(switches.size()) +
                              " NVSwitch function(s) on the PCI bus"};
  std::vector<std::string> bad;
  int completed = 0;
  for (const auto& d : f.nvml.devices) {
    if (!d.fabric_state) continue;
    ev.push_back(d.pci_bus_id + " fabric " + fabric_state_name(*d.fabric_state) +
                 (d.fabric_status ? " status " + nvml_return_name(*d.fabric_status) : ""));
    if (*d.fabric_state == 3 && d.fabric_status.value_or(0) == 0)
      ++completed;
    else
      bad.push_back(d.pci_bus_id);
  }
  const bool daemon_seen =
      f.daemons.present() && std::find(f.daemons.value.begin(), f.daemons.value.end(),
                                       "nv-fabricmanager") != f.daemons.value.end();
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
  if (!bad.empty())
    return finding(
        "fabric_manager", Status::kFail,
        "GPU fabric registration not completed on " + std::to_string(bad.size()) + " GPU(s)", ev,
        hint);
  if (f.daemons.present() && !daemon_seen && !in_container(f) && completed == 0)
    return finding("fabric_manager", Status::kFail,
                   "NVSwitch present but nv-fabricmanager is not running", ev, hint);
  if (completed > 0)
    return finding("fabric_manager", Status::kPass,
                   "fabric registration completed on " + std::to_string(completed) + " GPU(s)", ev);
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
  const bool daemon =
      f.daemons.present() && std::find(f.daemons.value.begin(), f.daemons.value.end(),
                                       "nvidia-persistenced") != f.daemons.value.end();
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

std::string pair_name(const PeerCopyPair& p) {
  return "GPU" + std::to_string(p.src) + "->GPU" + std::to_string(p.dst) + " (" + p.src_bus_id +
         (p.src == p.dst ? "" : " -> " + p.dst_bus_id) + ")";
}

// "GPU0->GPU1 (...): copy ok, SM store corrupt (12/1024 words differ); <detail>".
std::string pair_evidence(const PeerCopyPair& p) {
  std::string line = pair_name(p) + ": copy " + to_string(p.copy_result);
  if (p.copy_mismatched_words)
    line += " (" + std::to_string(*p.copy_mismatched_words) + "/" + std::to_string(p.words) +
            " words differ)";
  line += std::string(", SM store ") + to_string(p.store_result);
  if (p.store_mismatched_words)
    line += " (" + std::to_string(*p.store_mismatched_words) + "/" + std::to_string(p.words) +
            " words differ)";
  if (!p.detail.empty()) line += "; " + p.detail;
  return line;
}

Finding check_peer_copy(const Facts& f) {
  const auto& pc = f.peer_copy;
  if (pc.status == ProbeStatus::kNotRun)
    return finding("p2p.copy", Status::kSkip, "peer copy not run (" + pc.detail + ")");
  if (pc.status != ProbeStatus::kCompleted)
    return finding(
        "p2p.copy", Status::kFail,
        "peer-copy probe " + std::string(to_string(pc.status)) +
            (pc.detail.empty() ? "" : ": " + pc.detail),
        {},
        "a copy between GPUs hung or crashed the driver: check the kernel log (Xid, IOMMU faults) and rerun with "
        "NCCL_P2P_DISABLE=1 to confirm the P2P path is at fault");
  std::vector<std::string> ev, corrupt, failed, skipped;
  int ok = 0;
  for (const auto& p : pc.pairs) {
    ev.push_back(pair_evidence(p));
    if (p.either_write_is(CopyResult::kCorrupt))
      corrupt.push_back(pair_name(p));
    else if (p.either_write_is(CopyResult::kError))
      failed.push_back(pair_name(p));
    else if (p.either_write_is(CopyResult::kOk))
      ++ok;
    else
      skipped.push_back(pair_name(p));
  }
  const bool self = pc.mode == PeerCopyMode::kSelf;
  const std::string hint =
      in_vm_passthrough(f)
          ? "the hypervisor advertises P2P that does not reach the peer (a GPUDirect clique the host cannot honour): "
            "take the GPUs of these pairs out of their clique on the host (see vfio.clique; p2pcheck vm plan says "
            "which GPUs can share one), and set NCCL_P2P_DISABLE=1 in this VM until then"
          : "check iommu (faults, iommu=pt) and pcie.acs; until fixed, NCCL_P2P_DISABLE=1 avoids the broken path";
  if (!corrupt.empty())
    return finding("p2p.copy", Status::kFail,
                   "P2P claimed but data did not arrive on " + std::to_string(corrupt.size()) +
                       " of " + std::to_string(pc.pairs.size()) + " pair(s): " + join_some(corrupt),
                   ev, hint);
  if (!failed.empty())
    return finding("p2p.copy", Status::kFail,
                   "peer copy failed with an error on " + std::to_string(failed.size()) +
                       " pair(s): " + join_some(failed),
                   ev,
                   "see the error on each pair; check the kernel log for Xid or IOMMU messages");
  if (pc.pairs.empty())
    return finding("p2p.copy", Status::kSkip,
                   "no pair with peer access to copy between" +
                       (pc.detail.empty() ? "" : " (" + pc.detail + ")"),
                   ev);
  if (ok == 0)
    return finding("p2p.copy", Status::kSkip, "no pair was copied: " + join_some(skipped), ev);
  if (self)
    return finding(
        "p2p.copy", Status::kPass,
        "one GPU: checked against itself, the patterned buffer arrived intact (no peer to copy to)",
        ev);
  return finding("p2p.copy", Status::kPass,
                 "data verified on the destination GPU for " + std::to_string(ok) +
                     " pair(s) with peer access" +
                     (skipped.empty() ? "" : "; " + std::to_string(skipped.size()) + " not run"),
                 ev);
}

}  // namespace

void p2p(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_iommu(f));
  out.push_back(check_acs(f));
  out.push_back(check_p2p_status(f));
  out.push_back(check_peer_copy(f));
  out.push_back(check_fabric_manager(f));
  out.push_back(check_persistence(f));
}

}  // namespace p2p::doctor::rules
