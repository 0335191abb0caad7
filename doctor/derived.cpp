#include "doctor/derived.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "doctor/codes.hpp"
#include "doctor/driver_statements.hpp"

namespace p2p::doctor {

namespace {

bool contains(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool gsp_value_running(const std::string& v) { return !v.empty() && v != "N/A"; }

}  // namespace

std::string normalize_bdf(const std::string& bus_id) {
  std::string s;
  for (char c : bus_id) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // "bb:dd.f" has no domain; "0000:bb:dd.f" is canonical; NVML prints an 8-digit domain.
  const auto first = s.find(':');
  const auto last = s.rfind(':');
  if (first == std::string::npos) return s;
  if (first == last) return "0000:" + s;
  std::string domain = s.substr(0, first);
  if (domain.size() > 4) domain = domain.substr(domain.size() - 4);
  while (domain.size() < 4) domain = "0" + domain;
  return domain + s.substr(first);
}

std::vector<GpuView> gpus(const Facts& f) {
  std::map<std::string, GpuView> by_bdf;
  auto at = [&](const std::string& bus) -> GpuView& {
    const std::string bdf = normalize_bdf(bus);
    GpuView& g = by_bdf[bdf];
    g.bdf = bdf;
    return g;
  };
  if (f.pci.present())
    for (const auto& p : f.pci.value)
      if (is_gpu_class(p.class_code)) at(p.bdf).pci = &p;
  if (f.gpu_information.present())
    for (const auto& i : f.gpu_information.value) at(i.bdf).info = &i;
  for (const auto& d : f.nvml.devices)
    if (!d.pci_bus_id.empty()) at(d.pci_bus_id).nvml = &d;  // a lost GPU has no bus id in NVML
  for (const auto& d : f.cuda.devices) at(d.pci_bus_id).cuda = &d;

  std::vector<GpuView> out;
  for (auto& [bdf, g] : by_bdf) {
    if (g.pci != nullptr) {
      g.generation = generation_from_device_id(g.pci->device_id);
    } else if (g.nvml != nullptr && g.nvml->architecture) {
      g.generation = generation_from_nvml_architecture(*g.nvml->architecture);
    }
    if (g.nvml != nullptr && !g.nvml->name.empty()) {
      g.name = g.nvml->name;
    } else if (g.info != nullptr && !g.info->model.empty()) {
      g.name = g.info->model;
    } else if (g.cuda != nullptr) {
      g.name = g.cuda->name;
    }
    out.push_back(g);
  }
  return out;
}

std::vector<const PciFunction*> nvswitches(const Facts& f) {
  std::vector<const PciFunction*> out;
  if (f.pci.present())
    for (const auto& p : f.pci.value)
      if (is_nvswitch_class(p.class_code)) out.push_back(&p);
  return out;
}

Tri nvidia_loaded(const Facts& f) {
  const auto& k = f.kernel;
  if ((k.modules.present() && has(k.modules.value, "nvidia")) ||
      (k.sys_module_nvidia.present() && k.sys_module_nvidia.value) ||
      k.nvidia_version_text.present())
    return Tri::kYes;
  // /proc/modules lists loadable modules only; a built-in driver still shows in /sys/module and
  // /proc/driver/nvidia, so "not listed" counts only together with one of those being absent.
  const bool listed_no = k.modules.present();
  const bool sys_no = k.sys_module_nvidia.absent() || k.sys_module_nvidia.present();
  const bool proc_no = k.nvidia_version_text.absent();
  if (listed_no && (sys_no || proc_no)) return Tri::kNo;
  if (sys_no && proc_no) return Tri::kNo;
  return Tri::kUnknown;
}

Tri uvm_loaded(const Facts& f) {
  const auto& k = f.kernel;
  if ((k.modules.present() && has(k.modules.value, "nvidia_uvm")) ||
      (k.char_majors.present() && k.char_majors.value.count("nvidia-uvm") != 0) ||
      k.uvm_disable_hmm.present())
    return Tri::kYes;
  if (k.modules.present()) return Tri::kNo;
  if (k.char_majors.present()) return Tri::kNo;  // no nvidia-uvm character device registered
  return Tri::kUnknown;
}

bool no_driver(const Facts& f) {
  if (nvidia_loaded(f) != Tri::kNo) return false;
  // nouveau (or vfio-pci, ...) holding the GPUs while NVIDIA's libraries are installed: the
  // driver is there, the binding keeps it off the GPUs.
  const Binding b = binding(f);
  if (!b.other.empty() && b.nvidia_userspace) return false;
  // A proprietary module that refused every GPU did not load, but a driver is installed.
  if (!log_signals(f).open_required.empty()) return false;
  // Nor did one whose signature the kernel rejected (Secure Boot): it is installed, not missing.
  if (!log_signals(f).module_rejected.empty()) return false;
  // Nor did one never built for the running kernel while its libraries are installed (a failed
  // DKMS build after a kernel upgrade).
  if (module_not_built(f)) return false;
  // Nor one that refused every GPU and said why (a legacy GPU, a GPU without GSP for the open
  // module): the driver is installed, and the kernel log says what it needs.
  if (driver_refused_gpus(f)) return false;
  // A user-space library that initialises would contradict "no driver"; anything else agrees.
  return !(f.nvml.init_result && *f.nvml.init_result == 0) &&
         !(f.cuda.init_result && *f.cuda.init_result == 0);
}

Flavour module_flavour(const Facts& f) {
  if (!f.kernel.nvidia_version_text.present()) return Flavour::kUnknown;
  // The line's layout changes between releases; match the words, never positions.
  const std::string& t = f.kernel.nvidia_version_text.value;
  if (contains(t, "Open Kernel Module")) return Flavour::kOpen;
  if (contains(t, "Kernel Module")) return Flavour::kProprietary;
  return Flavour::kUnknown;
}

const char* to_string(Flavour fl) {
  switch (fl) {
    case Flavour::kOpen: return "open";
    case Flavour::kProprietary: return "proprietary";
    case Flavour::kUnknown: break;
  }
  return "unknown";
}

std::optional<std::string> module_version(const Facts& f) {
  if (f.kernel.module_version.present() && !f.kernel.module_version.value.empty())
    return f.kernel.module_version.value;
  if (!f.kernel.nvidia_version_text.present()) return std::nullopt;
  // "... Kernel Module for x86_64  580.159.04  Release Build ...": the first dotted number.
  const std::string& t = f.kernel.nvidia_version_text.value;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(t[i])) ||
        (i > 0 && !std::isspace(static_cast<unsigned char>(t[i - 1]))))
      continue;
    std::size_t j = i;
    while (j < t.size() && (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == '.')) ++j;
    const std::string word = t.substr(i, j - i);
    if (std::count(word.begin(), word.end(), '.') >= 1 && word.size() >= 5) return word;
  }
  return std::nullopt;
}

topo::Environment environment(const Facts& f) {
  topo::EnvironmentFacts e = f.environment;
  if (e.nvml_virtualization_mode.empty())
    for (const auto& d : f.nvml.devices)
      if (d.virtualization_mode && *d.virtualization_mode != 0)
        e.nvml_virtualization_mode = virtualization_mode_name(*d.virtualization_mode);
  return topo::classify_environment(e);
}

bool in_container(const Facts& f) { return environment(f).kind == "container"; }

bool in_vm_passthrough(const Facts& f) {
  if (in_vgpu_guest(f)) return false;  // a VM, but its GPUs are vGPUs, not passed-through devices
  for (const auto& d : f.nvml.devices)
    if (d.virtualization_mode && *d.virtualization_mode == 1) return true;
  const auto e = environment(f);
  return e.virtualization_mode == "Pass-Through" || (e.kind == "vm" && !gpus(f).empty());
}

bool in_wsl(const Facts& f) {
  const auto& r = f.kernel.release;
  // "5.15.133.1-microsoft-standard-WSL2"; WSL1 spells it "4.4.0-19041-Microsoft".
  if (r.present() && (r.value.find("microsoft") != std::string::npos ||
                      r.value.find("Microsoft") != std::string::npos))
    return true;
  if (f.device_nodes.present())
    for (const auto& n : f.device_nodes.value)
      if (n.path == "/dev/dxg") return true;
  return f.cuda.library_path && f.cuda.library_path->rfind("/usr/lib/wsl/", 0) == 0;
}

bool in_vgpu_guest(const Facts& f) {
  for (const auto& d : f.nvml.devices)
    if (d.virtualization_mode && *d.virtualization_mode == 2) return true;
  return false;
}

bool container_without_gpus(const Facts& f) {
  if (!in_container(f) || environment(f).container == "lxc") return false;
  if (nvidia_loaded(f) != Tri::kYes || !f.device_nodes.present()) return false;
  for (const auto& n : f.device_nodes.value)
    if (n.path.rfind("/dev/nvidia", 0) == 0) return false;
  return f.cuda.status == ProbeStatus::kLibraryMissing;
}

bool module_not_built(const Facts& f) {
  const auto& files = f.kernel.module_files;
  // Without NVIDIA's libraries no driver was installed at all: that is no_driver, not a build.
  return nvidia_loaded(f) == Tri::kNo && !in_container(f) && files.present() &&
         files.value.empty() && binding(f).nvidia_userspace;
}

std::string module_not_built_fix(const Facts& f) {
  const std::string kernel = f.kernel.release.present() ? f.kernel.release.value : "<kernel>";
  return "the driver's module was never built for kernel " + kernel +
         ": see dkms status and /var/lib/dkms/nvidia/<version>/build/make.log; install this kernel's headers and "
         "run dkms autoinstall, or install a driver release that supports this kernel (an old branch may not build "
         "on a new kernel at all), or boot the previous kernel; then modprobe nvidia";
}

bool geforce_without_pcie_p2p(const GpuView& g) {
  const bool consumer =
      g.name.find("GeForce") != std::string::npos || g.name.find("TITAN") != std::string::npos;
  const std::string& gen = g.generation.name;
  if (!g.generation.known) return false;
  return consumer && gen != "pre-Turing";
}

std::optional<int> cuinit_result(const Facts& f) {
  if (f.cuda.status != ProbeStatus::kCompleted) return std::nullopt;
  return f.cuda.init_result;
}

bool cuda_works(const Facts& f) {
  const auto r = cuinit_result(f);
  return r && *r == 0 && f.cuda.device_count.value_or(0) > 0;
}

bool nvml_works(const Facts& f) {
  return f.nvml.status == ProbeStatus::kCompleted && f.nvml.init_result &&
         *f.nvml.init_result == 0 && f.nvml.device_count.value_or(0) > 0;
}

std::optional<std::string> library_version(const std::optional<std::string>& path) {
  if (!path) return std::nullopt;
  const auto slash = path->rfind('/');
  const std::string file = path->substr(slash == std::string::npos ? 0 : slash + 1);
  const auto so = file.find(".so.");
  if (so == std::string::npos) return std::nullopt;
  const std::string suffix = file.substr(so + 4);
  // "1" is the soname, not a driver version; driver versions have at least one dot ("590.48.01").
  if (suffix.find('.') == std::string::npos) return std::nullopt;
  return suffix;
}

bool is_stub_path(const std::optional<std::string>& path) {
  return path && contains(*path, "/stubs/");
}
bool is_compat_path(const std::optional<std::string>& path) {
  return path && contains(*path, "/compat/");
}

LogSignals log_signals(const Facts& f) {
  LogSignals s;
  if (!f.kernel.log_lines.present()) return s;
  std::string gpu_line;  // the last "The NVIDIA GPU <bdf>" line: a multi-line record's first line
  for (const auto& line : f.kernel.log_lines.value) {
    const auto xid = xid_code(line);
    if (contains(line, "The NVIDIA GPU ") && !bdfs_in_line(line).empty()) gpu_line = line;
    if (contains(line, "fallen off the bus") || (xid && *xid == 79))
      s.gpu_lost.push_back(bdfs_in_line(line).empty() && !gpu_line.empty() ? gpu_line + " " + line
                                                                           : line);
    const bool gsp_timeout = contains(line, "Timeout waiting for RPC from GSP") ||
                             (contains(line, "GSP") && contains(line, "heartbeat timed out")) ||
                             (xid && (*xid == 119 || *xid == 120));
    if (gsp_timeout) s.gsp_timeout.push_back(line);
    if (contains(line, "PM: suspend") || contains(line, "PM: hibernation"))
      s.suspend.push_back(line);
    if (contains(line, "Loading of module with unavailable key is rejected") ||
        contains(line, "unsigned module loading is restricted") ||
        contains(line, "Key was rejected by service"))
      s.module_rejected.push_back(line);
    if (contains(line, "Secure boot enabled")) s.secure_boot.push_back(line);
    // A GSP that stops answering is not a firmware file problem: those lines are gsp_timeout only.
    if (gsp_timeout) continue;
    if ((contains(line, "Direct firmware load") && contains(line, "nvidia/")) ||
        contains(line, "RmFetchGspRmImages") || contains(line, "Cannot initialize GSP firmware") ||
        (contains(line, "GSP") &&
         (contains(line, "fail") || contains(line, "error") || contains(line, "timeout"))))
      s.firmware_load.push_back(line);
    if (contains(line, "RmInitAdapter failed") || contains(line, "rm_init_adapter failed") ||
        contains(line, "RmInitAdapter: Cannot"))
      s.rm_init.push_back(line);
    if (contains(line, "WPR2 already up")) s.wpr2.push_back(line);
    if (contains(line, "request_free_mem_region() err -34") ||
        (contains(line, "devmem_alloc_pagemap") && contains(line, "err")))
      s.hmm.push_back(line);
    if (contains(line, "API mismatch")) s.api_mismatch.push_back(line);
    if (contains(line, "requires use of the NVIDIA open kernel modules"))
      s.open_required.push_back(line);
    if (line.rfind("nouveau ", 0) == 0 || contains(line, "nouveau 0000:"))
      s.nouveau.push_back(line);
    if (contains(line, "probe routine was not called") ||
        contains(line, "obtained ownership of the NVIDIA device"))
      s.not_probed.push_back(line);
    if ((contains(line, "BAR") &&
         (contains(line, "no space for") || contains(line, "failed to assign"))) ||
        contains(line, "is 0M @ 0x0") ||
        contains(line, "PCI I/O region assigned to your NVIDIA device is invalid") ||
        contains(line, "BIOS may have misconfigured your GPU"))
      s.bar_space.push_back(line);
    if (contains(line, "IO_PAGE_FAULT") ||
        (contains(line, "DMAR") &&
         (contains(line, "Request device") || contains(line, "handling fault"))))
      s.iommu_faults.push_back(line);
    const auto at = line.find("major device number ");
    if (contains(line, "UVM driver") && at != std::string::npos) {
      try {
        s.uvm_major_logged = std::stoi(line.substr(at + 20));
      } catch (...) {
      }
    }
  }
  return s;
}

GspRun gsp_run(const Facts& f) {
  GspRun r;
  std::set<std::string> versions;
  const bool open_module = module_flavour(f) == Flavour::kOpen;
  for (const auto& g : gpus(f)) {
    std::optional<bool> running;
    std::string version;
    if (g.info != nullptr && g.info->gsp_firmware) {
      running = gsp_value_running(*g.info->gsp_firmware);
      version = *g.info->gsp_firmware;
    } else if (g.nvml != nullptr && g.nvml->gsp_firmware_enabled) {
      running = *g.nvml->gsp_firmware_enabled;
      version = g.nvml->gsp_firmware_version.value_or("");
    }
    if (!running) {
      ++r.unknown;
    } else if (*running) {
      ++r.running;
      if (!version.empty()) versions.insert(version);
    } else {
      ++r.off;
      if (open_module || g.generation.needs_open_module) ++r.off_required;
    }
  }
  r.versions.assign(versions.begin(), versions.end());
  return r;
}

bool gsp_running_everywhere(const Facts& f) {
  const GspRun r = gsp_run(f);
  return r.running > 0 && r.off == 0 && r.unknown == 0;
}

FirmwareCheck firmware_check(const Facts& f) {
  FirmwareCheck c;
  std::set<std::string> needed;
  for (const auto& g : gpus(f))
    if (!g.generation.gsp_firmware.empty()) needed.insert(g.generation.gsp_firmware);
  c.needed.assign(needed.begin(), needed.end());
  if (c.needed.empty()) {
    c.state = FirmwareCheck::State::kNotNeeded;
    return c;
  }
  const auto version = module_version(f);
  if (f.firmware.versions.present())
    for (const auto& v : f.firmware.versions.value)
      if (!version || v != *version) c.other_versions.push_back(v);
  if (!version) return c;  // kUnknown
  c.directory = "/lib/firmware/nvidia/" + *version;
  if (f.firmware.gsp_files.present()) {
    for (const auto& n : c.needed)
      if (!has(f.firmware.gsp_files.value, n)) c.missing.push_back(n);
  } else if (f.firmware.gsp_files.absent()) {
    c.missing = c.needed;
  } else {
    return c;  // listing unreadable or not checked: kUnknown
  }
  // The open module cannot run without GSP, nor can Blackwell; the proprietary module can run
  // older GPUs (GeForce among them) with GSP off, so there a missing file is not a fault by
  // itself, wherever the doctor runs.
  bool required = module_flavour(f) != Flavour::kProprietary;
  for (const auto& g : gpus(f)) required = required || g.generation.needs_open_module;
  if (c.missing.empty()) {
    c.state = FirmwareCheck::State::kPresent;
  } else if (gsp_running_everywhere(f)) {
    c.state = FirmwareCheck::State::kElsewhere;
  } else if (!required) {
    c.state = FirmwareCheck::State::kOptional;
  } else if (in_container(f)) {
    c.state = FirmwareCheck::State::kNotVisible;
  } else {
    c.state = FirmwareCheck::State::kMissing;
  }
  return c;
}

NodeAccess node_access(const Facts& f) {
  NodeAccess a;
  if (!f.device_nodes.present()) return a;
  for (const auto& n : f.device_nodes.value) {
    // Needed for compute: the control node, one per GPU, and UVM. Caps (MIG) and modeset are not.
    const std::string& p = n.path;
    const bool gpu_node = p.rfind("/dev/nvidia", 0) == 0 && p.size() > 11 &&
                          std::isdigit(static_cast<unsigned char>(p[11]));
    const bool needed =
        p == "/dev/nvidiactl" || p == "/dev/nvidia-uvm" || p == "/dev/nvidia-uvm-tools" || gpu_node;
    if (!needed || !n.open_rdwr) continue;
    ++a.attempted;
    if (n.open_rdwr->opened) {
      ++a.opened;
    } else {
      a.failures.push_back(p + ": " + n.open_rdwr->error);
      a.eperm = a.eperm || n.open_rdwr->failed_with("EPERM");
      a.eacces = a.eacces || n.open_rdwr->failed_with("EACCES");
    }
  }
  return a;
}

std::optional<long long> param_number(const Facts& f, const std::string& name) {
  if (!f.kernel.params.present()) return std::nullopt;
  const auto it = f.kernel.params.value.find(name);
  if (it == f.kernel.params.value.end()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(it->second, &used, 0);
    if (used == 0) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

std::vector<std::pair<std::string, std::string>> registry_dwords(const Facts& f) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!f.kernel.params.present()) return out;
  const auto it = f.kernel.params.value.find("RegistryDwords");
  if (it == f.kernel.params.value.end()) return out;
  std::string s = it->second;
  s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = s.find(';', start);
    if (end == std::string::npos) end = s.size();
    const std::string entry = s.substr(start, end - start);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) out.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

}  // namespace p2p::doctor
