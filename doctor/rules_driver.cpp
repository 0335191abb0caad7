// Where we run, the kernel module (loaded, flavour, parameters, GPU binding), GSP firmware and the
// kernel log.
#include <algorithm>
#include <set>

#include "doctor/codes.hpp"
#include "doctor/derived.hpp"
#include "doctor/driver_statements.hpp"
#include "doctor/rules.hpp"
#include "doctor/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

Finding check_environment(const Facts& f) {
  const auto e = environment(f);
  std::string summary;
  if (e.kind == "container") {
    // A container inside a VM is two layers: the GPU's PCIe view is the hypervisor's, and the
    // driver is the VM's; both matter when reading the topology and the firmware checks.
    summary = "container (" + e.container + ")" +
              (e.hypervisor.empty() ? "" : " inside a VM (" + e.hypervisor + ")") +
              (in_vm_passthrough(f) ? " with pass-through GPUs" : "") +
              ": the module, /proc/driver/nvidia and the firmware belong to the host";
  } else if (e.kind == "vm") {
    summary =
        "virtual machine" + (e.hypervisor.empty() ? std::string() : " (" + e.hypervisor + ")");
    if (in_vm_passthrough(f))
      summary += " with pass-through GPUs: PHB on every pair is expected here";
  } else if (in_wsl(f)) {
    summary =
        "WSL2" +
        (f.kernel.release.present() ? " (kernel " + f.kernel.release.value + ")" : std::string()) +
        ": the Windows driver serves the GPUs through /dev/dxg; no Linux module, no peer-to-peer";
  } else {
    summary = "bare metal";
  }
  std::string hint;
  if (e.kind == "container")
    hint = "checks about firmware, kernel log and daemons may need a run on the host";
  return finding("environment", Status::kPass, summary, e.evidence, hint);
}

// The module is not loaded: why, as far as the facts tell, and the fix that follows from it.
Finding module_missing(const Facts& f, const std::vector<std::string>& ev) {
  const Binding b = binding(f);
  std::string hint =
      in_container(f)
          ? "the host must load it (modprobe nvidia, or install the driver on the host)"
          : "install the NVIDIA driver (the -open flavour for Turing and newer) and load it: modprobe nvidia";
  std::string summary = "NVIDIA kernel module not loaded";
  if (module_not_built(f)) {
    summary += ": the running kernel " + f.kernel.release.value +
               " has no nvidia module (modules.dep lists none)";
    hint = module_not_built_fix(f);
  }
  // The driver loaded, refused every GPU and said why: its sentence is the fix, not a new
  // install.
  if (const auto refusal = first_refusal(f)) {
    summary += ": the installed driver refused the GPU(s) and unloaded (see driver.refused)";
    hint = refusal_fix(*refusal);
  }
  if (!log_signals(f).module_rejected.empty()) {
    summary += ": the kernel rejected the module's signature (Secure Boot)";
    hint =
        "enroll the module's signing key (mokutil --import, then reboot) or turn Secure Boot off";
  }
  if (!b.other.empty() && b.nvidia_userspace) {
    summary += "; the GPUs are held by " + b.other.begin()->first +
               " while the NVIDIA libraries are installed";
    hint = "see module.binding: " + unbind_fix(b.other.begin()->first, b.other.begin()->second);
  }
  return finding("module.loaded", Status::kFail, summary, ev, hint);
}

Finding check_module_loaded(const Facts& f) {
  const auto& k = f.kernel;
  std::vector<std::string> ev;
  if (k.modules.present()) {
    ev.push_back(std::string("/proc/modules: nvidia ") +
                 (std::find(k.modules.value.begin(), k.modules.value.end(), "nvidia") !=
                          k.modules.value.end()
                      ? "listed"
                      : "not listed"));
  } else {
    ev.push_back(std::string("/proc/modules: ") + to_string(k.modules.seen));
  }
  ev.push_back(std::string("/sys/module/nvidia: ") + to_string(k.sys_module_nvidia.seen));
  if (k.module_version.present())
    ev.push_back("/sys/module/nvidia/version: " + k.module_version.value);
  if (k.nvidia_version_text.present()) {
    ev.push_back("/proc/driver/nvidia/version: " + k.nvidia_version_text.value);
  } else {
    ev.push_back(std::string("/proc/driver/nvidia/version: ") +
                 to_string(k.nvidia_version_text.seen));
  }
  if (in_wsl(f) && nvidia_loaded(f) != Tri::kYes)
    return finding("module.loaded", Status::kSkip,
                   "WSL2: no Linux nvidia module; the Windows driver serves the GPUs (/dev/dxg)",
                   ev);
  if (k.module_files.present() && k.release.present())
    ev.push_back("/lib/modules/" + k.release.value + "/modules.dep: " +
                 (k.module_files.value.empty() ? std::string("no nvidia module")
                                               : join_some(k.module_files.value)));
  switch (nvidia_loaded(f)) {
    case Tri::kYes:
      return finding(
          "module.loaded", Status::kPass,
          "nvidia kernel module " + module_version(f).value_or("(version unknown)") + " loaded",
          ev);
    case Tri::kNo: return module_missing(f, ev);
    case Tri::kUnknown: break;
  }
  return finding("module.loaded", Status::kUnknown,
                 "cannot tell whether the nvidia module is loaded", ev,
                 "/proc/modules and /sys/module are unreadable here; check on the host");
}

Finding check_flavour(const Facts& f) {
  if (nvidia_loaded(f) == Tri::kNo)
    return finding("module.flavour", Status::kSkip, "no module loaded");
  const Flavour fl = module_flavour(f);
  std::vector<std::string> blackwell;
  for (const auto& g : gpus(f))
    if (g.generation.needs_open_module)
      blackwell.push_back(g.bdf + " " + (g.name.empty() ? g.generation.name : g.name));
  std::vector<std::string> ev;
  if (f.kernel.nvidia_version_text.present())
    ev.push_back("/proc/driver/nvidia/version: " + f.kernel.nvidia_version_text.value);
  for (const auto& b : blackwell) ev.push_back("needs the open module: " + b);
  if (fl == Flavour::kUnknown)
    return finding("module.flavour", Status::kUnknown,
                   "module flavour unknown (/proc/driver/nvidia/version not read)", ev);
  if (fl == Flavour::kProprietary && !blackwell.empty())
    return finding(
        "module.flavour", Status::kFail,
        "proprietary kernel module with " + std::to_string(blackwell.size()) +
            " Blackwell GPU(s): only the open modules support Blackwell and newer",
        ev,
        "install the -open kernel module packages (or run the .run installer with -M open), then reboot");
  std::string summary = std::string(to_string(fl)) + " kernel module";
  if (!blackwell.empty())
    summary += " (required for the " + std::to_string(blackwell.size()) + " Blackwell GPU(s))";
  return finding("module.flavour", Status::kPass, summary, ev);
}

Finding check_params(const Facts& f) {
  const auto& p = f.kernel.params;
  if (nvidia_loaded(f) == Tri::kNo)
    return finding("module.params", Status::kSkip, "no module loaded");
  if (!p.present())
    return finding("module.params", Status::kUnknown,
                   std::string("/proc/driver/nvidia/params ") + to_string(p.seen), {}, "");
  Status st = Status::kPass;
  std::vector<std::string> notes, ev, hints;
  for (const char* name : {"EnableGpuFirmware", "NvLinkDisable", "EnableResizableBar",
                           "DmaRemapPeerMmio", "DeviceFileMode", "RegistryDwords"}) {
    const auto it = p.value.find(name);
    if (it != p.value.end()) ev.push_back(std::string(name) + ": " + it->second);
  }
  bool needs_gsp = module_flavour(f) == Flavour::kOpen;
  for (const auto& g : gpus(f)) needs_gsp = needs_gsp || g.generation.needs_open_module;
  if (const auto fw = param_number(f, "EnableGpuFirmware"); fw && *fw == 0) {
    st = worst(st, needs_gsp ? Status::kFail : Status::kWarn);
    notes.push_back("EnableGpuFirmware=0 turns GSP off");
    hints.push_back("remove NVreg_EnableGpuFirmware=0 (the open module and Blackwell require GSP)");
  }
  if (const auto nv = param_number(f, "NvLinkDisable"); nv && *nv != 0) {
    st = worst(st, Status::kWarn);
    notes.push_back("NvLinkDisable=" + std::to_string(*nv) + ": the driver will not use NVLink");
    hints.push_back(
        "drop NVreg_NvLinkDisable if these GPUs have NVLink bridges or NVSwitch; harmless on PCIe-only GPUs");
  }
  for (const auto& [key, value] : registry_dwords(f)) {
    if (key != "ForceP2P") continue;
    try {
      const long v = std::stol(value, nullptr, 0);
      // ForceP2P: read in bits 1:0, write in 5:4; 0 = forced off, 1 = on, 2 = default.
      if ((v & 0x3) == 0 || ((v >> 4) & 0x3) == 0) {
        st = worst(st, Status::kWarn);
        notes.push_back("RegistryDwords ForceP2P=" + value + " forces P2P reads or writes off");
        hints.push_back("remove ForceP2P from NVreg_RegistryDwords unless P2P must stay off");
      } else {
        notes.push_back("RegistryDwords ForceP2P=" + value + " overrides the driver's P2P choice");
      }
    } catch (...) {
      notes.push_back("RegistryDwords ForceP2P=" + value + " (not a number)");
    }
  }
  std::string summary =
      notes.empty() ? "module parameters at defaults that matter for P2P" : join(notes, "; ");
  if (notes.empty()) {
    const auto fw = param_number(f, "EnableGpuFirmware");
    const auto nv = param_number(f, "NvLinkDisable");
    summary = "EnableGpuFirmware=" + (fw ? std::to_string(*fw) : std::string("?")) +
              ", NvLinkDisable=" + (nv ? std::to_string(*nv) : std::string("?")) +
              ", no P2P overrides";
  }
  return finding("module.params", st, summary, ev, join(hints, "; "));
}

Finding check_binding(const Facts& f) {
  const Binding b = binding(f);
  std::vector<std::string> ev;
  for (const auto& g : gpus(f))
    if (g.pci != nullptr && !g.pci->driver.unknown())
      ev.push_back(g.bdf + ": " +
                   (g.pci->driver.absent() ? std::string("no driver") : g.pci->driver.value));
  if (b.known == 0)
    return gpus(f).empty()
               ? finding("module.binding", Status::kSkip, "no NVIDIA GPU")
               : finding("module.binding", Status::kUnknown, "GPU driver binding unknown", ev);
  // Another driver holding a GPU is the cause whether or not nvidia is installed: nvidia cannot
  // probe a device that is already bound.
  if (!b.other.empty()) {
    std::vector<std::string> held;
    int count = 0;
    for (const auto& [driver, bdfs] : b.other) {
      held.push_back(driver + " (" + join_some(bdfs) + ")");
      count += static_cast<int>(bdfs.size());
    }
    const auto& [driver, bdfs] = *b.other.begin();
    const std::string summary =
        driver == "vfio-pci" && b.other.size() == 1
            ? std::to_string(count) + " GPU(s) still bound to vfio-pci: " + join_some(bdfs)
            : std::to_string(count) + " GPU(s) bound to another driver: " + join(held);
    return finding("module.binding", Status::kFail, summary, ev, unbind_fix(driver, bdfs));
  }
  if (!b.unbound.empty()) {
    const LogSignals log = log_signals(f);
    const auto bar = gpus_named(f, log.bar_space);
    std::string why, hint = "load the nvidia module; check `dmesg` for probe errors";
    if (!bar.empty()) {
      why = " (the kernel could not give them PCI address space: see kernel.log)";
      hint = "see the verdict: the GPUs' BARs were not assigned";
    } else if (const auto refused = refused_gpus(f);
               std::any_of(b.unbound.begin(), b.unbound.end(), [&](const std::string& x) {
                 return std::count(refused.begin(), refused.end(), x) > 0;
               })) {
      why = " (the driver refused them and says why: see driver.refused)";
      hint = "see the verdict: the driver's own words name what it needs";
    } else if (!gpus_named(f, log.gpu_lost).empty()) {
      why = " (fell off the bus: see kernel.log)";
      hint =
          "see the verdict: a GPU that fell off the bus needs a power cycle and a hardware check";
    } else if (b.nouveau_loaded) {
      hint = unbind_fix("nouveau", b.unbound);
    }
    return finding("module.binding", Status::kFail,
                   "GPU(s) not bound to nvidia: " + join_some(b.unbound) + why, ev, hint);
  }
  return finding("module.binding", Status::kPass,
                 "all " + std::to_string(b.nvidia.size()) + " GPU(s) bound to nvidia", ev);
}

Finding check_firmware_file(const Facts& f) {
  const FirmwareCheck c = firmware_check(f);
  const LogSignals log = log_signals(f);
  std::vector<std::string> ev;
  if (!c.directory.empty()) ev.push_back("looked in " + c.directory + " for " + join(c.needed));
  if (!c.other_versions.empty())
    ev.push_back("other firmware versions present: " + join(c.other_versions));
  for (const auto& l : log.firmware_load) ev.push_back("kernel log: " + l);
  const std::string want =
      c.directory + "/" + (c.needed.empty() ? std::string("gsp_*.bin") : c.needed.front());
  using S = FirmwareCheck::State;
  switch (c.state) {
    case S::kNotNeeded:
      return finding("gsp.firmware_file", Status::kSkip, "no GPU that loads GSP firmware", ev);
    case S::kPresent: return finding("gsp.firmware_file", Status::kPass, want + " present", ev);
    case S::kElsewhere:
      return finding(
          "gsp.firmware_file", Status::kPass,
          "GSP runs on every GPU although " + want +
              " is not there: the kernel found the firmware elsewhere (firmware_class.path or built in)",
          ev);
    case S::kMissing:
      return finding(
          "gsp.firmware_file", Status::kFail, want + " missing: the module cannot boot GSP", ev,
          "install the firmware of exactly this driver version (same package as the module), "
          "rebuild the initramfs if it loads nvidia, then reload the module or reboot");
    case S::kOptional:
      return finding("gsp.firmware_file", Status::kPass,
                     want + " not installed; the proprietary module runs these GPUs with GSP off",
                     ev);
    case S::kNotVisible:
      if (!log.firmware_load.empty())
        return finding("gsp.firmware_file", Status::kFail,
                       "kernel log shows the GSP firmware load failing (the host's " + want + ")",
                       ev,
                       "on the host: install " + want +
                           " matching the module exactly, then reload the module");
      return finding(
          "gsp.firmware_file", Status::kUnknown,
          "the host's firmware is not visible from this container (" + want + " not here)", ev,
          "on the host: ls " + want);
    case S::kUnknown: break;
  }
  return finding("gsp.firmware_file", Status::kUnknown,
                 "cannot tell which GSP firmware file is needed or present", ev);
}

Finding check_gsp_state(const Facts& f) {
  const GspRun run = gsp_run(f);
  std::vector<std::string> ev;
  for (const auto& g : gpus(f)) {
    if (g.info != nullptr && g.info->gsp_firmware)
      ev.push_back(g.bdf + ": GSP Firmware " + *g.info->gsp_firmware);
    else if (g.nvml != nullptr && g.nvml->gsp_firmware_enabled)
      ev.push_back(g.bdf + ": NVML GSP " +
                   (*g.nvml->gsp_firmware_enabled ? "enabled " : "disabled ") +
                   g.nvml->gsp_firmware_version.value_or(""));
  }
  const int total = run.running + run.off + run.unknown;
  if (total == 0) return finding("gsp.state", Status::kSkip, "no GPU listed", ev);
  if (run.running + run.off == 0)
    return finding("gsp.state", Status::kUnknown,
                   "GSP state unknown (/proc/driver/nvidia/gpus not read, NVML not run)", ev);
  if (run.off_required > 0)
    return finding(
        "gsp.state", Status::kFail,
        "GSP not running on " + std::to_string(run.off_required) + " of " + std::to_string(total) +
            " GPUs, but this module/GPU generation requires it",
        ev,
        "see gsp.firmware_file and the kernel log (RmInitAdapter); reload the module or reset the GPU");
  const auto version = module_version(f);
  if (run.running > 0 && version && !run.versions.empty() &&
      (run.versions.size() > 1 || run.versions.front() != *version))
    return finding("gsp.state", Status::kWarn,
                   "GSP firmware " + join(run.versions) + " differs from the module " + *version,
                   ev, "install firmware and module from the same driver release");
  if (run.off > 0)
    return finding(
        "gsp.state", Status::kPass,
        "GSP off on " + std::to_string(run.off) + " GPU(s) (allowed with the proprietary module)",
        ev);
  return finding("gsp.state", Status::kPass,
                 "GSP firmware " + join(run.versions) + " running on " +
                     std::to_string(run.running) + " of " + std::to_string(total) + " GPUs",
                 ev);
}

Finding check_kernel_log(const Facts& f) {
  const auto& l = f.kernel.log_lines;
  if (l.seen == Seen::kNotChecked)
    return finding("kernel.log", Status::kSkip, "kernel log not collected");
  if (l.unknown())
    return finding("kernel.log", Status::kUnknown, "kernel log unreadable here (" + l.error + ")",
                   {}, "run as root, or read `dmesg | grep -E 'NVRM|nvidia|GSP|uvm'` on the host");
  if (l.absent()) return finding("kernel.log", Status::kUnknown, "no kernel log source found");
  const LogSignals s = log_signals(f);
  std::vector<std::string> bad;
  for (const auto* group : {&s.firmware_load, &s.rm_init, &s.wpr2, &s.hmm, &s.api_mismatch,
                            &s.open_required, &s.not_probed, &s.bar_space, &s.iommu_faults,
                            &s.gpu_lost, &s.gsp_timeout, &s.module_rejected})
    for (const auto& line : *group)
      if (std::find(bad.begin(), bad.end(), line) == bad.end()) bad.push_back(line);
  // nouveau's own lines are a failure only where nouveau holds a GPU (it may have been unloaded
  // since).
  const Binding held = binding(f);
  const bool nouveau_holds =
      held.other.count("nouveau") != 0 || (held.nouveau_loaded && !s.nouveau.empty());
  if (nouveau_holds)
    for (const auto& line : s.nouveau) bad.push_back(line);
  const std::string from = " (" + f.kernel.log_source + ")";
  if (bad.empty())
    return finding(
        "kernel.log", Status::kPass,
        std::to_string(l.value.size()) + " NVIDIA-related lines, no failure signature" + from);
  std::vector<std::string> kinds;
  if (!s.firmware_load.empty()) kinds.push_back("GSP firmware load");
  if (!s.rm_init.empty()) kinds.push_back("RmInitAdapter");
  if (!s.wpr2.empty()) kinds.push_back("WPR2 already up");
  if (!s.hmm.empty()) kinds.push_back("UVM HMM request_free_mem_region -34");
  if (!s.api_mismatch.empty()) kinds.push_back("API mismatch");
  if (!s.open_required.empty()) kinds.push_back("open kernel module required");
  if (nouveau_holds || !s.not_probed.empty())
    kinds.push_back("nouveau (or another driver) owns the GPU");
  if (!s.bar_space.empty()) kinds.push_back("PCI BAR space not assigned");
  if (!s.iommu_faults.empty()) kinds.push_back("IOMMU faults");
  if (!s.gpu_lost.empty()) kinds.push_back("GPU fell off the bus");
  if (!s.gsp_timeout.empty()) kinds.push_back("GSP RPC timeout");
  if (!s.module_rejected.empty()) kinds.push_back("module signature rejected");
  std::string hint;
  if (!s.wpr2.empty())
    hint =
        "WPR2 already up: the GPU was left initialised (e.g. by a VFIO guest); reset or cold-boot it";
  // The log keeps history: a failure that the present state contradicts is a note, not a fault.
  const bool init_failures_only = s.hmm.empty() && s.api_mismatch.empty() &&
                                  s.open_required.empty() && !nouveau_holds &&
                                  s.not_probed.empty() && s.bar_space.empty();
  // IOMMU faults do not stop CUDA; they stop peer traffic, which the iommu check weighs.
  const bool only_iommu = bad.size() == s.iommu_faults.size();
  if (only_iommu)
    return finding("kernel.log", Status::kWarn,
                   "kernel log shows IOMMU faults (" + std::to_string(s.iommu_faults.size()) +
                       " line(s)): see iommu" + from,
                   bad, "see iommu");
  const GpuUse use = gpu_use(f);
  const bool every_gpu_works = cuda_works(f) && use.unusable.empty();
  if (every_gpu_works ||
      (init_failures_only && gsp_running_everywhere(f) && !cuinit_result(f).value_or(0)))
    return finding(
        "kernel.log", Status::kWarn,
        "kernel log shows earlier failures (" + join(kinds) + "), but the driver works now" + from,
        bad, "nothing to do unless they recur; a reboot clears the history");
  return finding("kernel.log", Status::kFail, "kernel log shows failures: " + join(kinds) + from,
                 bad, hint);
}

}  // namespace

void driver(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_environment(f));
  out.push_back(check_module_loaded(f));
  out.push_back(check_flavour(f));
  out.push_back(check_params(f));
  out.push_back(check_binding(f));
  out.push_back(check_firmware_file(f));
  out.push_back(check_gsp_state(f));
  out.push_back(check_kernel_log(f));
}

}  // namespace p2p::doctor::rules
