// Whether the PCIe fabric lets peer traffic through: IOMMU translation (iommu) and ACS
// redirection on the bridges between the GPUs (pcie.acs).
#include <optional>
#include <set>
#include <sstream>

#include "doctor/derived.hpp"
#include "doctor/rules/rules_p2p_checks.hpp"
#include "doctor/rules/rules_util.hpp"

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

// What the bridges above the GPUs say about ACS: each bridge once, in the order the GPUs list
// them.
struct AcsSurvey {
  std::vector<std::string> ev, redirecting, unreadable;
  int bridges = 0;
  bool pci_known = false;  // at least one GPU was found in /sys/bus/pci
};

AcsSurvey survey_acs(const std::vector<GpuView>& all) {
  AcsSurvey s;
  std::set<std::string> seen;
  for (const auto& g : all) {
    if (g.pci == nullptr) continue;
    s.pci_known = true;
    for (const auto& b : g.pci->upstream) {
      if (!seen.insert(b.bdf).second) continue;
      ++s.bridges;
      if (b.acs_control.present()) {
        s.ev.push_back(b.bdf + " ACSCtl " + acs_text(b.acs_control.value));
        if (redirects(b)) s.redirecting.push_back(b.bdf);
      } else if (b.acs_control.absent()) {
        s.ev.push_back(b.bdf + " no ACS capability");
      } else {
        s.ev.push_back(b.bdf + " config space " + to_string(b.acs_control.seen) +
                       (b.acs_control.error.empty() ? "" : " (" + b.acs_control.error + ")"));
        s.unreadable.push_back(b.bdf);
      }
    }
  }
  return s;
}

// pcie.acs where nothing redirects peer traffic that turns below the root complex: which of the
// harmless cases this is.
Finding acs_pass(const AcsSurvey& s, const std::optional<std::set<std::string>>& turning) {
  if (turning && turning->empty())
    return finding(
        "pcie.acs", Status::kPass,
        "no two GPUs share a bridge and no root port between them redirects: their peer traffic meets in the root "
        "complex" +
            (s.redirecting.empty()
                 ? std::string()
                 : " (ACS redirection set on " + join_some(s.redirecting) + ", harmless here)") +
            (s.unreadable.empty() ? std::string()
                                  : " (" + std::to_string(s.unreadable.size()) +
                                        " bridge(s) unreadable, not needed)"),
        s.ev);
  if (!s.redirecting.empty())
    return finding(
        "pcie.acs", Status::kPass,
        "ACS redirection on " + std::to_string(s.redirecting.size()) + " bridge(s) (" +
            join_some(s.redirecting) +
            ") where no GPU pair turns: their peer traffic meets in the root complex anyway",
        s.ev);
  if (s.bridges == 0)
    return finding("pcie.acs", Status::kPass, "no PCIe bridges between the GPUs and their root",
                   s.ev);
  return finding(
      "pcie.acs", Status::kPass,
      "no ACS redirection on the " + std::to_string(s.bridges) + " bridge(s) above the GPUs", s.ev);
}

}  // namespace

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

Finding check_acs(const Facts& f) {
  const auto all = gpus(f);
  if (all.size() < 2)
    return finding("pcie.acs", Status::kSkip, "fewer than two GPUs: no peer path to check");
  const AcsSurvey s = survey_acs(all);
  if (!s.pci_known) return finding("pcie.acs", Status::kUnknown, "GPUs not found in /sys/bus/pci");
  const auto turning = turning_bridges(all);
  std::vector<std::string> in_path;
  for (const auto& b : s.redirecting)
    if (!turning || turning->count(b)) in_path.push_back(b);
  if (!in_path.empty())
    return finding(
        "pcie.acs", Status::kFail,
        "ACS redirects peer traffic to the root complex on " +
            std::to_string(s.redirecting.size()) + " bridge(s): " + join_some(s.redirecting),
        s.ev,
        "disable ACS in the BIOS, or boot with pci=disable_acs_redir=" + join(in_path, ";") +
            ", or clear it at boot with setpci -s <bdf> ECAP_ACS+6.w=0000 on each (weakens isolation, which matters "
            "for VFIO)");
  const auto complex_ports = shared_complex_root_ports(all);
  bool unreadable_in_path = false;
  for (const auto& b : s.unreadable)
    unreadable_in_path =
        unreadable_in_path || !turning || turning->count(b) || complex_ports.count(b);
  if (unreadable_in_path)
    return finding("pcie.acs", Status::kUnknown,
                   "ACS of " + std::to_string(s.unreadable.size()) +
                       " bridge(s) unreadable: full config space needs CAP_SYS_ADMIN "
                       "in the initial user namespace",
                   s.ev, "run as root on the host: lspci -vvv | grep ACSCtl");
  // Root ports of GPUs that meet in one root complex: with request redirection on, peer requests
  // between them go up to the IOMMU instead of across the root complex, and NCCL has been seen to
  // hang there until ACS was cleared. GPUs on different NUMA nodes cross the socket link anyway.
  std::vector<std::string> ports;
  for (const auto& b : s.redirecting)
    if (complex_ports.count(b)) ports.push_back(b);
  if (!ports.empty())
    return finding(
        "pcie.acs", Status::kWarn,
        "ACS redirection on the root ports of GPUs that meet in the root complex (" +
            join_some(ports) +
            "): peer requests detour through the IOMMU instead of crossing the root complex",
        s.ev,
        "if P2P hangs or is slow, clear ACS on those root ports: setpci -s <bdf> ECAP_ACS+6.w=0000 for " +
            join(ports) + " (until reboot; pci=disable_acs_redir=" + join(ports, ";") +
            " at boot), or disable ACS in the BIOS (weakens isolation, which matters for VFIO)");
  return acs_pass(s, turning);
}

}  // namespace p2p::doctor::rules
