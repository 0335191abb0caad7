// Candidate root causes and their weights. A weight says how directly the evidence points at the
// cause: a kernel-log line naming the failure outweighs a setting that merely allows it, and a
// driver-level failure outweighs a P2P limitation (nothing P2P matters while cuInit fails).
#include <algorithm>

#include "doctor/codes.hpp"
#include "doctor/derived.hpp"
#include "doctor/driver_statements.hpp"
#include "doctor/rules_util.hpp"
#include "doctor/verdict.hpp"
#include "doctor/verdict_health.hpp"
#include "doctor/verdict_vfio.hpp"

namespace p2p::doctor {

namespace {

std::string confidence_of(int score) {
  if (score >= 10) return "confirmed";
  if (score >= 5) return "likely";
  return "possible";
}

Cause make(std::string id, std::string title, int score, std::vector<std::string> evidence,
           std::string fix) {
  return Cause{std::move(id),       std::move(title), score, confidence_of(score),
               std::move(evidence), std::move(fix),   {}};
}

bool failed(const std::vector<Finding>& all, const std::string& id) {
  const Finding* f = find_finding(all, id);
  return f != nullptr && f->status == Status::kFail;
}

bool warned(const std::vector<Finding>& all, const std::string& id) {
  const Finding* f = find_finding(all, id);
  return f != nullptr && f->status == Status::kWarn;
}

// A cause taken straight from a failed (or warned) check: its summary and evidence.
void from_finding(std::vector<Cause>& out, const std::vector<Finding>& all, const std::string& id,
                  std::string cause_id, std::string title, int score,
                  std::vector<std::string> affected = {}) {
  const Finding* f = find_finding(all, id);
  if (f == nullptr) return;
  std::vector<std::string> ev{f->summary};
  ev.insert(ev.end(), f->evidence.begin(), f->evidence.end());
  out.push_back(make(std::move(cause_id), std::move(title), score, ev, f->hint));
  out.back().gpus = std::move(affected);
}

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
  out.push_back(make("bar_space", "PCI address space not assigned to the GPU's BARs", 22, ev, fix));
  out.back().gpus = affected;
}

// Lines as cause evidence: "kernel log: <line>" each.
std::vector<std::string> log_evidence(const std::vector<std::string>& lines) {
  std::vector<std::string> ev;
  for (const auto& l : lines) ev.push_back("kernel log: " + l);
  return ev;
}

// A GPU that fell off the bus answers nothing until the host is power-cycled: whatever else fails
// on it (no driver bound, no NVML handle, no CUDA device) follows from that.
void gpu_lost_cause(const Facts& f, std::vector<Cause>& out) {
  const LogSignals log = log_signals(f);
  if (log.gpu_lost.empty()) return;
  out.push_back(make(
      "gpu_lost", "GPU fell off the bus (Xid 79)", 26, log_evidence(log.gpu_lost),
      "the GPU stopped answering on PCIe: power the host off and on (a warm reboot may not bring it back), "
      "reseat the GPU, its power cables and any riser, check the power supply and the GPU's temperature, update "
      "the BIOS; if the fault follows the card to another slot, the card is failing"));
  out.back().gpus = gpus_named(f, log.gpu_lost);
}

// GSP-RM, the firmware that runs the GPU, stopped answering the driver (Xid 119/120): the firmware
// file was found and booted, so reinstalling it does not help.
void gsp_timeout_cause(const Facts& f, std::vector<Cause>& out) {
  const LogSignals log = log_signals(f);
  if (log.gsp_timeout.empty()) return;
  out.push_back(make(
      "gsp_timeout", "GSP firmware stopped answering (Xid 119/120)", 16,
      log_evidence(log.gsp_timeout),
      "reset the GPU (nvidia-smi -r -i <bdf>, no process may use it) or reboot; install a newer driver of the branch "
      "(the Xid 119 timeouts of the first 525 releases are fixed in 525.105.17); with the proprietary module on a GPU "
      "older than Blackwell, `options nvidia NVreg_EnableGpuFirmware=0` runs it without GSP"));
  out.back().gpus = gpus_named(f, log.gsp_timeout);
}

// cuInit = 999 while nvidia_uvm is loaded, its node has the right major and every node opens:
// UVM itself is in a bad state, the classic aftermath of a suspend/resume cycle.
void uvm_stale_cause(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  const auto init = cuinit_result(f);
  if (!init || *init != 999 || uvm_loaded(f) != Tri::kYes || !nvml_works(f)) return;
  if (failed(all, "uvm.major") || failed(all, "devices.open") || failed(all, "devices.nodes"))
    return;
  const LogSignals log = log_signals(f);
  std::vector<std::string> ev{
      "cuInit = 999 CUDA_ERROR_UNKNOWN while NVML works, nvidia_uvm is "
      "loaded and its node has the right major"};
  const auto slept = log_evidence(log.suspend);
  ev.insert(ev.end(), slept.begin(), slept.end());
  out.push_back(make(
      "uvm_stale",
      log.suspend.empty() ? "nvidia_uvm in a bad state" : "nvidia_uvm broken by suspend/resume",
      log.suspend.empty() ? 4 : 10, ev,
      "stop the processes that use the GPU, then reload nvidia_uvm (rmmod nvidia_uvm && modprobe nvidia_uvm) or "
      "reboot; to keep CUDA working across suspend, set `options nvidia NVreg_PreserveVideoMemoryAllocations=1` and "
      "enable nvidia-suspend.service, nvidia-resume.service and nvidia-hibernate.service"));
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
  out.push_back(make(
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
  out.push_back(make(
      "no_driver", "No NVIDIA driver", 100, ev,
      all.empty()
          ? "nothing to fix on a host without NVIDIA GPUs; on a GPU host install the NVIDIA driver"
          : "install the NVIDIA driver (open kernel modules for Turing and newer) and reboot"));
}

// RmInitAdapter failed only on GPUs with a 256 MiB BAR1, with no sign of a firmware problem: the
// BAR (Resizable BAR / Above 4G Decoding off) is the cause, and the bar1 check says so.
bool rm_init_explained_by_bar1(const Facts& f, const LogSignals& log, const FirmwareCheck& fw) {
  if (log.rm_init.empty() || !log.firmware_load.empty()) return false;
  if (fw.state == FirmwareCheck::State::kMissing) return false;
  const auto failing = gpus_named(f, log.rm_init);
  const auto small = small_bar1(f).init_failed;
  return !failing.empty() && std::all_of(failing.begin(), failing.end(), [&](const std::string& b) {
    return std::find(small.begin(), small.end(), b) != small.end();
  });
}

void gsp_cause(const Facts& f, std::vector<Cause>& out) {
  // GSP running on every GPU clears the firmware, whatever older log lines say.
  if (gsp_running_everywhere(f)) return;
  const LogSignals log = log_signals(f);
  const FirmwareCheck fw = firmware_check(f);
  const GspRun run = gsp_run(f);
  if (rm_init_explained_by_bar1(f, log, fw)) return;
  bool needs_gsp = module_flavour(f) == Flavour::kOpen;
  for (const auto& g : gpus(f)) needs_gsp = needs_gsp || g.generation.needs_open_module;
  int score = 0;
  std::vector<std::string> ev;
  if (!log.firmware_load.empty()) {
    score += 10;
    for (const auto& l : log.firmware_load) ev.push_back("kernel log: " + l);
  }
  if (!log.rm_init.empty()) {
    score += 6;
    for (const auto& l : log.rm_init) ev.push_back("kernel log: " + l);
  }
  if (fw.state == FirmwareCheck::State::kMissing) {
    score += 10;
    ev.push_back(fw.directory + "/" + join(fw.missing) + " missing" +
                 (fw.other_versions.empty()
                      ? ""
                      : " (firmware present only for " + join(fw.other_versions) + ")"));
  }
  if (const auto p = param_number(f, "EnableGpuFirmware"); p && *p == 0 && needs_gsp) {
    score += 10;
    ev.push_back("EnableGpuFirmware=0: GSP turned off by a module parameter");
  }
  if (run.off_required > 0) {
    score += 5;
    ev.push_back("GSP not running on " + std::to_string(run.off_required) +
                 " GPU(s) that require it (/proc/driver/nvidia/gpus/*/information)");
  }
  const auto init = cuinit_result(f);
  const bool cuda_failed = init && *init != 0;
  if (score > 0 && cuda_failed) {
    score += 2;
    ev.push_back("cuInit = " + std::to_string(*init) + " " + cu_result_name(*init));
  }
  if (score == 0 && fw.state == FirmwareCheck::State::kNotVisible && cuda_failed &&
      run.running == 0) {
    // Nothing points at the firmware, but nothing clears it either: the host's files are out of
    // sight.
    score = 3;
    ev.push_back("the host's " + fw.directory +
                 " cannot be seen from this container; the kernel log shows no firmware failure");
  }
  if (score == 0) return;
  for (const auto& l : log.wpr2) ev.push_back("kernel log: " + l);
  const std::string ver = module_version(f).value_or("<module version>");
  std::string fix =
      "install the GSP firmware of exactly this driver on the host (/lib/firmware/nvidia/" + ver +
      "/" + (fw.needed.empty() ? std::string("gsp_ga10x.bin") : fw.needed.front()) +
      ", shipped with the same driver package as the module), rebuild the initramfs if it loads nvidia, "
      "then reload the module or reboot; use a driver release that supports these GPUs (Blackwell: open modules)";
  if (!log.wpr2.empty()) fix += "; WPR2 already up: reset or cold-boot the GPU first";
  // The affected GPUs: those the failure lines name, else those running without GSP.
  std::vector<std::string> lines = log.firmware_load;
  lines.insert(lines.end(), log.rm_init.begin(), log.rm_init.end());
  lines.insert(lines.end(), log.wpr2.begin(), log.wpr2.end());
  auto affected = gpus_named(f, lines);
  if (affected.empty())
    for (const auto& g : gpus(f))
      if (g.info != nullptr && g.info->gsp_firmware && *g.info->gsp_firmware == "N/A")
        affected.push_back(g.bdf);
  // The firmware is where it belongs and boots elsewhere: a GPU left initialised (by a VFIO guest,
  // a crash) refuses a second boot until it is reset.
  const bool firmware_fine = (fw.state == FirmwareCheck::State::kPresent ||
                              fw.state == FirmwareCheck::State::kElsewhere) &&
                             log.firmware_load.empty() && run.running > 0;
  if (firmware_fine && !log.wpr2.empty()) {
    const std::string first = affected.empty() ? std::string("<bdf>") : affected.front();
    fix =
        "WPR2 already up: the firmware is installed and boots on the other GPUs, but this GPU was left initialised; reset " +
        join(affected) + " (no process may use it: nvidia-smi -r -i " + first +
        ", or echo 1 > /sys/bus/pci/devices/" + first +
        "/reset), or power-cycle the host; then reload nvidia. If a VM used this GPU, let the host reset it after the VM stops";
  }
  out.push_back(make("gsp_firmware",
                     firmware_fine ? "GPU initialisation (GSP boot) failed on some GPUs"
                                   : "GSP firmware / kernel-driver support",
                     score, ev, fix));
  out.back().gpus = affected;
}

void hmm_cause(const Facts& f, const std::vector<Cause>& so_far, std::vector<Cause>& out) {
  if (cuda_works(f)) return;  // UVM came up: whatever the log remembers is history
  const LogSignals log = log_signals(f);
  const auto& h = f.kernel.uvm_disable_hmm;
  const auto init = cuinit_result(f);
  std::vector<std::string> ev;
  int score = 0;
  if (!log.hmm.empty()) {
    score = 12;
    for (const auto& l : log.hmm) ev.push_back("kernel log: " + l);
  } else if (init && *init == 3 && module_flavour(f) == Flavour::kOpen &&
             uvm_loaded(f) == Tri::kYes) {
    const bool disabled = h.present() && (h.value == "Y" || h.value == "1");
    if (disabled) return;
    score = h.present() ? 6 : 4;
    ev.push_back("cuInit = 3 CUDA_ERROR_NOT_INITIALIZED with the open kernel module");
    ev.push_back(h.present() ? "uvm_disable_hmm=" + h.value + " (HMM enabled)"
                             : "uvm_disable_hmm unreadable (HMM may be on)");
    // Strong firmware evidence explains cuInit = 3 by itself; HMM stays a candidate, ranked below.
    for (const auto& c : so_far)
      if (c.id == "gsp_firmware" && c.score >= 10) score = 3;
  }
  if (score == 0) return;
  if (h.present() && !log.hmm.empty()) ev.push_back("uvm_disable_hmm=" + h.value);
  out.push_back(make(
      "uvm_hmm", "UVM/HMM (KASLR) failure", score, ev,
      "on the host: set `options nvidia_uvm uvm_disable_hmm=1` in /etc/modprobe.d and reload nvidia_uvm "
      "(or boot with nokaslr); CUDA 13 release notes list this as a known issue"));
}

void p2p_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  const Finding* p2p = find_finding(all, "p2p.status");
  vfio_causes(f, all, out);  // VFIO guests: GPUDirect cliques (verdict_vfio.cpp)
  // IOMMU faults on the GPUs are the IOMMU dropping their DMA: direct evidence, above ACS, which
  // only allows the IOMMU to see peer traffic (and which the kernel sets whenever the IOMMU is on).
  if (failed(all, "iommu"))
    from_finding(out, all, "iommu", "iommu", "The IOMMU blocks the GPUs' DMA (IOMMU faults)", 12,
                 gpus_named(f, log_signals(f).iommu_faults));
  if (failed(all, "pcie.acs"))
    from_finding(out, all, "pcie.acs", "acs", "PCIe ACS redirects peer traffic", 9);
  // Redirection on the root ports is the direct mechanism, the IOMMU's translation (5) only where
  // it ends up: ranked just above it.
  if (warned(all, "pcie.acs"))
    from_finding(out, all, "pcie.acs", "acs", "ACS redirection on the GPUs' root ports", 6);
  if (p2p != nullptr && p2p->status == Status::kWarn && in_wsl(f))
    from_finding(out, all, "p2p.status", "wsl_p2p", "WSL2: no peer-to-peer between GPUs", 6);
  else if (p2p != nullptr && p2p->status == Status::kWarn && in_vgpu_guest(f))
    from_finding(out, all, "p2p.status", "vgpu_p2p", "vGPU guest: no P2P between these vGPUs", 5);
  else if (p2p != nullptr && p2p->status == Status::kWarn && !in_vm_passthrough(f))
    from_finding(out, all, "p2p.status", "geforce_p2p",
                 "GeForce: no PCIe P2P on this product (not a misconfiguration)", 4);
  for (const auto& v : visible_devices(f))
    if (v.mig.size() >= 2)
      from_finding(out, all, "env", "mig_p2p", "MIG instances: no peer-to-peer between them", 4);
  if (warned(all, "iommu"))
    from_finding(out, all, "iommu", "iommu", "IOMMU translation on the GPUs", 5);
  if (failed(all, "p2p.copy")) {
    std::vector<std::string> affected;
    for (const auto& p : f.peer_copy.pairs)
      if (p.went_wrong())
        for (const auto& b : {p.src_bus_id, p.dst_bus_id})
          if (std::find(affected.begin(), affected.end(), normalize_bdf(b)) == affected.end())
            affected.push_back(normalize_bdf(b));
    from_finding(out, all, "p2p.copy", "p2p_data_lost", "P2P claimed but data did not arrive", 11,
                 affected);
  }
  if (failed(all, "bar1")) {
    const auto init_failed = small_bar1(f).init_failed;
    if (init_failed.empty())
      from_finding(out, all, "bar1", "bar1", "256 MiB BAR1 (Above-4G / Resizable BAR off)", 9);
    else
      from_finding(out, all, "bar1", "bar1",
                   "GPU cannot initialise with a 256 MiB BAR1 (Above-4G / Resizable BAR off)", 20,
                   init_failed);
  }
  if (failed(all, "pcie.link"))
    from_finding(out, all, "pcie.link", "link_width", "PCIe link trained narrower than capable", 8);
  if (failed(all, "pcie.aer"))
    from_finding(out, all, "pcie.aer", "aer", "PCIe errors (AER) on a GPU link", 6);
  if (p2p != nullptr && p2p->status == Status::kFail) {
    const bool regkey = p2p->summary.find("DISABLED_BY_REGKEY") != std::string::npos;
    const bool explained = std::any_of(
        out.begin(), out.end(), [](const Cause& c) { return c.id == "acs" || c.id == "iommu"; });
    if (regkey)
      from_finding(out, all, "p2p.status", "p2p_regkey", "P2P disabled by a driver registry key",
                   10);
    else if (!explained)
      from_finding(out, all, "p2p.status", "p2p_unsupported",
                   "P2P not supported by this GPU/chipset/topology", 7);
  }
  if (warned(all, "env") && f.env.count("NCCL_P2P_DISABLE"))
    from_finding(out, all, "env", "nccl_env", "NCCL_P2P_DISABLE set in the environment", 3);
}

}  // namespace

Cause make_cause(std::string id, std::string title, int score, std::vector<std::string> evidence,
                 std::string fix, std::vector<std::string> gpus) {
  Cause c = make(std::move(id), std::move(title), score, std::move(evidence), std::move(fix));
  c.gpus = std::move(gpus);
  return c;
}

const Finding* find_finding(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings)
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<Cause> candidate_causes(const Facts& f, const std::vector<Finding>& all) {
  std::vector<Cause> out;
  no_driver_cause(f, out);
  const LogSignals log = log_signals(f);
  if (failed(all, "module.flavour")) {
    from_finding(out, all, "module.flavour", "proprietary_blackwell",
                 "Proprietary kernel module on Blackwell", 30);
    for (const auto& l : log.open_required) out.back().evidence.push_back("kernel log: " + l);
  } else if (!log.open_required.empty()) {
    // The proprietary module refused every GPU and did not stay loaded: only the log tells.
    std::vector<std::string> ev;
    for (const auto& l : log.open_required) ev.push_back("kernel log: " + l);
    out.push_back(make(
        "proprietary_blackwell", "Proprietary kernel module on Blackwell", 30, ev,
        "install the -open kernel module packages (or run the .run installer with -M open), then reboot"));
  }
  bar_space_cause(f, out);
  gpu_lost_cause(f, out);
  if (container_without_gpus(f))
    out.push_back(
        make("container_no_gpus", "Container started without GPUs", 30,
             {"no /dev/nvidia* node and no libcuda.so.1 in this container, while the host's nvidia "
              "module " +
                  module_version(f).value_or("") + " is loaded",
              "the container runtime injects both only for a container started with GPUs"},
             container_gpus_fix()));
  module_rejected_cause(f, out);
  if (module_not_built(f)) {
    std::vector<std::string> ev{"/lib/modules/" + f.kernel.release.value +
                                "/modules.dep lists no nvidia module, and none is loaded"};
    ev.push_back("the NVIDIA user-space libraries are installed: the driver is, its module is not");
    out.push_back(make("module_not_built", "No nvidia module built for the running kernel", 28, ev,
                       module_not_built_fix(f)));
  }
  if (failed(all, "module.binding") && !no_driver(f)) {
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
      from_finding(out, all, "module.binding", "vfio_bound",
                   "GPU(s) not bound to the nvidia driver", 20, b.unbound);
    }
  }
  gsp_cause(f, out);
  gsp_timeout_cause(f, out);
  hmm_cause(f, out, out);
  uvm_stale_cause(f, all, out);
  if (failed(all, "cuda.library")) {
    const bool stub = is_stub_path(f.cuda.library_path) || cuinit_result(f).value_or(0) == 34;
    const bool compat = is_compat_path(f.cuda.library_path);
    if (stub)
      from_finding(out, all, "cuda.library", "stub_library",
                   "Stub libcuda picked up instead of the driver's", 18);
    else if (compat)
      from_finding(out, all, "cuda.library", "compat_library",
                   "Forward-compatibility libcuda cannot drive this setup", 16);
    else if (!no_driver(f))
      from_finding(out, all, "cuda.library", "libcuda_missing",
                   "Driver user space (libcuda.so.1) missing", 15);
  }
  if (failed(all, "versions.userspace"))
    from_finding(out, all, "versions.userspace", "version_mismatch",
                 "User-space driver libraries do not match the kernel module", 16);
  if (failed(all, "fabric_manager")) {
    const FabricManagerLog fm = fabric_manager_log(f);
    const bool other_release = fm.version && module_version(f) && *fm.version != *module_version(f);
    from_finding(out, all, "fabric_manager", "fabric_manager",
                 other_release ? "Fabric Manager of another release than the driver"
                               : "Fabric Manager not running on an NVSwitch system",
                 cuinit_result(f).value_or(0) == 802 ? 16 : 12);
  }
  if (failed(all, "module.uvm"))
    from_finding(out, all, "module.uvm", "uvm_missing", "nvidia_uvm not loaded", 15);
  if (failed(all, "uvm.major"))
    from_finding(out, all, "uvm.major", "uvm_node",
                 "/dev/nvidia-uvm missing or with the wrong major", 14);
  // ENXIO/ENODEV opens are the stale-major story above; only EACCES/EPERM are about permissions.
  const NodeAccess access = node_access(f);
  if (failed(all, "devices.open") && (access.eacces || access.eperm))
    from_finding(out, all, "devices.open", "device_access",
                 "Device permissions / cgroup device filter", 14);
  else if (failed(all, "cgroup"))
    from_finding(out, all, "cgroup", "device_access", "Device permissions / cgroup device filter",
                 13);
  if (failed(all, "devices.nodes"))
    from_finding(out, all, "devices.nodes", "device_nodes", "NVIDIA device nodes missing or wrong",
                 12);
  if (failed(all, "env")) {
    std::string title = "CUDA_VISIBLE_DEVICES hides the GPUs";
    for (const auto& v : visible_devices(f)) {
      if (v.hides_all)
        title = v.variable + " hides the GPUs";
      else if (!v.missing.empty() && v.usable == 0)
        title = v.variable + " names GPUs that are not here";
    }
    from_finding(out, all, "env", "visible_devices", title, 14);
  }
  if (failed(all, "versions.cuda_api"))
    from_finding(out, all, "versions.cuda_api", "insufficient_driver",
                 "Driver too old for the CUDA runtime p2pcheck uses", 12);
  if (failed(all, "compute_mode")) {
    std::vector<std::string> affected;
    for (const auto& d : f.nvml.devices)
      if (d.compute_mode && (*d.compute_mode == 1 || *d.compute_mode == 2))
        affected.push_back(normalize_bdf(d.pci_bus_id));
    from_finding(out, all, "compute_mode", "compute_mode",
                 "Compute mode forbids CUDA contexts (or all but one thread's)", 10, affected);
  }
  const auto& c = f.cuda;
  if (c.status == ProbeStatus::kCrashed || c.status == ProbeStatus::kTimedOut)
    out.push_back(make(std::string("cuda_probe_") + to_string(c.status),
                       "The driver crashed or hung inside CUDA initialisation", 8,
                       {std::string("CUDA probe ") + to_string(c.status) + ": " + c.detail},
                       "check the kernel log; reset the GPU or reboot"));
  p2p_causes(f, all, out);
  health_causes(f, all, out);
  const auto init = cuinit_result(f);
  const bool strong =
      std::any_of(out.begin(), out.end(), [](const Cause& x) { return x.score >= 5; });
  if (init && *init != 0 && !strong)
    out.push_back(
        make("cuinit", "cuInit failed: " + cu_result_name(*init), 2, {cu_init_explanation(*init)},
             "see the failed checks above; the explanation lists the usual causes of this code"));
  return out;
}

}  // namespace p2p::doctor
