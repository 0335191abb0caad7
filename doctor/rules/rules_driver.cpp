// Where we run and the kernel module (loaded, flavour, parameters, GPU binding); rules::driver
// runs these with the GSP firmware checks (rules_gsp.cpp) and the kernel log check
// (rules_kernel_log.cpp), in the checklist's order.
#include <algorithm>
#include <set>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/knowledge/driver_statements.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_driver_checks.hpp"
#include "doctor/rules/rules_util.hpp"

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
  // A single GPU has no peer to reach over NVLink: there the setting changes nothing (cloud VMs
  // with one GPU ship with it), and "healthy" must stay healthy.
  if (const auto nv = param_number(f, "NvLinkDisable"); nv && *nv != 0 && gpus(f).size() < 2) {
    notes.push_back("NvLinkDisable=" + std::to_string(*nv) +
                    ": no NVLink, which one GPU does not need");
  } else if (nv && *nv != 0) {
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
