// Causes that keep the driver off the GPUs: no driver at all, the proprietary module on Blackwell,
// a module Secure Boot refuses or that was never built for this kernel, a container started
// without GPUs, GPUs without BAR space or lost from the bus, and GPUs bound to another driver.
#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/knowledge/driver_statements.hpp"
#include "doctor/rules/rules_util.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/verdict/verdict_cause_support.hpp"

namespace p2p::doctor {

namespace {

// A PCI BAR without address space: the GPU cannot be driven at all (nvidia's probe fails).
void bar_space_cause(const Facts& f, std::vector<Cause>& out) {
  const LogSignals log = log_signals(f);
  if (log.bar_space.empty()) return;
  const auto affected = gpus_named(f, log.bar_space);
  std::vector<std::string> ev;
  for (const auto& l : log.bar_space) ev.push_back("kernel log: " + l);
  if (!affected.empty())
    ev.insert(ev.begin(), "no PCI address space for the BARs of " + join(affected));
  const auto env = environment(f);
  const bool vm = env.kind == "vm" || !env.hypervisor.empty() || in_vm_passthrough(f);
  const std::string fix =
      vm ? "give the VM a 64-bit MMIO window large enough for every GPU's BARs (BAR1 is about the GPU's memory size): "
           "QEMU/OVMF -fw_cfg name=opt/ovmf/X-PciMmio64Mb,string=<MiB> (Proxmox: an args: line with it), VMware "
           "pciPassthru.use64bitMMIO=TRUE with pciPassthru.64bitMMIOSizeGB, then restart the VM"
         : "enable Above 4G Decoding (and Resizable BAR; disable CSM) in the BIOS so the firmware places the GPUs' "
           "large BARs, or boot with pci=realloc; then reboot";
  out.push_back(make_cause("bar_space", "PCI address space not assigned to the GPU's BARs", 22, ev,
                           fix, affected));
}

// A GPU that fell off the bus answers nothing until the host is power-cycled: whatever else fails
// on it (no driver bound, no NVML handle, no CUDA device) follows from that.
void gpu_lost_cause(const Facts& f, std::vector<Cause>& out) {
  const LogSignals log = log_signals(f);
  if (log.gpu_lost.empty()) return;
  out.push_back(make_cause(
      "gpu_lost", "GPU fell off the bus (Xid 79)", 26, log_evidence(log.gpu_lost),
      "the GPU stopped answering on PCIe: power the host off and on (a warm reboot may not bring it back), "
      "reseat the GPU, its power cables and any riser, check the power supply and the GPU's temperature, update "
      "the BIOS; if the fault follows the card to another slot, the card is failing"));
  out.back().gpus = gpus_named(f, log.gpu_lost);
}

// The module is installed but the kernel will not load it: Secure Boot wants a signature from an
// enrolled key. "Install the driver" would send the user round in circles.
void module_rejected_cause(const Facts& f, std::vector<Cause>& out) {
  if (nvidia_loaded(f) != Tri::kNo) return;
  const LogSignals log = log_signals(f);
  const bool userspace = binding(f).nvidia_userspace;
  int score = 0;
  if (!log.module_rejected.empty())
    score = 30;
  else if (!log.secure_boot.empty() && userspace)
    score = 6;  // Secure Boot is on and the module is missing: the usual reason, not a proof
  if (score == 0) return;
  auto ev = log_evidence(log.module_rejected.empty() ? log.secure_boot : log.module_rejected);
  if (userspace)
    ev.push_back("the NVIDIA user-space libraries are installed, the nvidia module is not loaded");
  out.push_back(make_cause(
      "module_signature", "Secure Boot refuses the nvidia kernel module", score, ev,
      "enroll the key the module was signed with (DKMS: sudo mokutil --import /var/lib/shim-signed/mok/MOK.der, "
      "reboot and confirm it in MokManager), or sign the module with an enrolled key, or turn Secure Boot off; "
      "then modprobe nvidia"));
}

void no_driver_cause(const Facts& f, std::vector<Cause>& out) {
  if (!no_driver(f)) return;
  std::vector<std::string> ev{
      "nvidia kernel module not loaded (/proc/modules, /sys/module/nvidia, /proc/driver/nvidia)"};
  if (f.cuda.status == ProbeStatus::kLibraryMissing)
    ev.push_back("libcuda.so.1 not found: " + f.cuda.detail);
  if (f.nvml.status == ProbeStatus::kLibraryMissing)
    ev.push_back("libnvidia-ml.so.1 not found: " + f.nvml.detail);
  const auto all = gpus(f);
  if (f.pci.present() && all.empty()) ev.push_back("no NVIDIA GPU on the PCI bus");
  if (!all.empty()) ev.push_back(std::to_string(all.size()) + " NVIDIA GPU(s) on the PCI bus");
  out.push_back(make_cause(
      "no_driver", "No NVIDIA driver", 100, ev,
      all.empty()
          ? "nothing to fix on a host without NVIDIA GPUs; on a GPU host install the NVIDIA driver"
          : "install the NVIDIA driver (open kernel modules for Turing and newer) and reboot"));
}

// The proprietary module on Blackwell: from the module.flavour check, or from the log alone when
// the module refused every GPU and unloaded.
void open_module_required_cause(const Facts& f, const std::vector<Finding>& all,
                                std::vector<Cause>& out) {
  const LogSignals log = log_signals(f);
  // The GPUs it concerns: those only the open module drives, and those the log's refusals name.
  std::vector<std::string> affected = gpus_named(f, log.open_required);
  for (const auto& g : gpus(f))
    if (g.generation.needs_open_module &&
        std::find(affected.begin(), affected.end(), g.bdf) == affected.end())
      affected.push_back(g.bdf);
  std::sort(affected.begin(), affected.end());
  if (check_failed(all, "module.flavour")) {
    from_finding(out, all, "module.flavour", "proprietary_blackwell",
                 "Proprietary kernel module on Blackwell", 30, affected);
    for (const auto& l : log.open_required) out.back().evidence.push_back("kernel log: " + l);
  } else if (!log.open_required.empty()) {
    // The proprietary module refused every GPU and did not stay loaded: only the log tells.
    std::vector<std::string> ev;
    for (const auto& l : log.open_required) ev.push_back("kernel log: " + l);
    out.push_back(make_cause(
        "proprietary_blackwell", "Proprietary kernel module on Blackwell", 30, ev,
        "install the -open kernel module packages (or run the .run installer with -M open), then reboot",
        affected));
  }
}

void container_cause(const Facts& f, std::vector<Cause>& out) {
  if (!container_without_gpus(f)) return;
  out.push_back(make_cause(
      "container_no_gpus", "Container started without GPUs", 30,
      {"no /dev/nvidia* node and no libcuda.so.1 in this container, while the host's nvidia "
       "module " +
           module_version(f).value_or("") + " is loaded",
       "the container runtime injects both only for a container started with GPUs"},
      container_gpus_fix()));
}

void module_not_built_cause(const Facts& f, std::vector<Cause>& out) {
  if (!module_not_built(f)) return;
  std::vector<std::string> ev{"/lib/modules/" + f.kernel.release.value +
                              "/modules.dep lists no nvidia module, and none is loaded"};
  ev.push_back("the NVIDIA user-space libraries are installed: the driver is, its module is not");
  out.push_back(make_cause("module_not_built", "No nvidia module built for the running kernel", 28,
                           ev, module_not_built_fix(f)));
}

// GPUs not bound to nvidia: held by another driver (vfio-pci, nouveau, ...), or unbound for no
// reason another cause already gives.
void binding_cause(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  if (!check_failed(all, "module.binding") || no_driver(f)) return;
  const LogSignals log = log_signals(f);
  const Binding b = binding(f);
  // A GPU without BAR space or one that fell off the bus cannot be bound; with no nvidia module
  // loaded nothing can be: those causes speak for themselves.
  auto known_reason = gpus_named(f, log.bar_space);
  const auto lost = gpus_named(f, log.gpu_lost);
  known_reason.insert(known_reason.end(), lost.begin(), lost.end());
  // GPUs the driver refused and said why: driver_unsupported_gpu / open_module_unsupported.
  const auto refused = refused_gpus(f);
  known_reason.insert(known_reason.end(), refused.begin(), refused.end());
  const bool explained =
      b.other.empty() && !b.unbound.empty() &&
      (nvidia_loaded(f) == Tri::kNo ||
       std::all_of(b.unbound.begin(), b.unbound.end(), [&](const std::string& x) {
         return std::find(known_reason.begin(), known_reason.end(), x) != known_reason.end();
       }));
  if (!b.other.empty()) {
    const std::string driver = b.other.begin()->first;
    std::vector<std::string> held;
    for (const auto& [d, bdfs] : b.other) held.insert(held.end(), bdfs.begin(), bdfs.end());
    const bool vfio = driver == "vfio-pci" && b.other.size() == 1;
    from_finding(out, all, "module.binding", vfio ? "vfio_bound" : "competing_driver",
                 vfio ? "GPU(s) not bound to the nvidia driver"
                      : "GPU(s) bound to " + driver + " instead of nvidia",
                 20, held);
    for (const auto& l : log.not_probed) out.back().evidence.push_back("kernel log: " + l);
    for (const auto& l : log.nouveau) out.back().evidence.push_back("kernel log: " + l);
  } else if (!explained) {
    from_finding(out, all, "module.binding", "vfio_bound", "GPU(s) not bound to the nvidia driver",
                 20, b.unbound);
  }
}

}  // namespace

void driver_load_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  no_driver_cause(f, out);
  open_module_required_cause(f, all, out);
  bar_space_cause(f, out);
  gpu_lost_cause(f, out);
  container_cause(f, out);
  module_rejected_cause(f, out);
  module_not_built_cause(f, out);
  binding_cause(f, all, out);
}

}  // namespace p2p::doctor
