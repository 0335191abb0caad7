// Pure readings of the facts about the GPUs and the place the doctor runs in: which GPUs there
// are (matched across sysfs, /proc/driver/nvidia, NVML and CUDA by bus id), whether this is a
// container, a VM, WSL or a vGPU guest, and which of the driver's device nodes open from here.
#include "doctor/derived.hpp"

#include <cctype>
#include <map>

#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor {

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

bool geforce_without_pcie_p2p(const GpuView& g) {
  const bool consumer =
      g.name.find("GeForce") != std::string::npos || g.name.find("TITAN") != std::string::npos;
  const std::string& gen = g.generation.name;
  if (!g.generation.known) return false;
  return consumer && gen != "pre-Turing";
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

}  // namespace p2p::doctor
