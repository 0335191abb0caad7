#include "topology/environment.hpp"

#include <cpuid.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "common/file_io.hpp"
#include "common/strict_json.hpp"
#include "common/text.hpp"

namespace p2p::topo {

namespace {

std::string read_trimmed(const std::string& path) {
  return trim(try_read_text_file(path).value_or(""));
}

bool cpuinfo_has_hypervisor_flag(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;)
      if (w == "hypervisor") return true;
    return false;  // the first CPU's flags speak for all
  }
  return false;
}

// /proc/1/environ is NUL-separated; we want the value of container=.
std::string container_from_environ(const std::string& environ) {
  std::size_t start = 0;
  while (start < environ.size()) {
    std::size_t end = environ.find('\0', start);
    if (end == std::string::npos) end = environ.size();
    const std::string entry = environ.substr(start, end - start);
    if (entry.rfind("container=", 0) == 0) return entry.substr(10);
    start = end + 1;
  }
  return "";
}

std::string cpuid_hypervisor_vendor() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  __cpuid(1, eax, ebx, ecx, edx);
  if ((ecx & (1u << 31)) == 0) return "";
  __cpuid(0x40000000, eax, ebx, ecx, edx);
  char sig[13] = {};
  std::memcpy(sig + 0, &ebx, 4);
  std::memcpy(sig + 4, &ecx, 4);
  std::memcpy(sig + 8, &edx, 4);
  return trim(sig);
#else
  return "";
#endif
}

// CPUID and DMI strings as people know them.
std::string hypervisor_name(const EnvironmentFacts& f) {
  const std::string& v = f.hypervisor_vendor;
  if (v.rfind("KVMKVMKVM", 0) == 0) return "KVM";
  if (v == "Microsoft Hv") return "Hyper-V";
  if (v == "VMwareVMware") return "VMware";
  if (v == "XenVMMXenVMM") return "Xen";
  if (v == "TCGTCGTCGTCG") return "QEMU (TCG)";
  if (!v.empty()) return v;
  if (!f.hypervisor_type.empty()) return f.hypervisor_type;
  const std::string& d = f.dmi_sys_vendor;
  if (d == "QEMU") return "KVM/QEMU";
  if (d.find("VMware") != std::string::npos) return "VMware";
  if (d == "Microsoft Corporation" && f.dmi_product_name == "Virtual Machine") return "Hyper-V";
  if (d == "Xen") return "Xen";
  return "";
}

std::string container_kind(const EnvironmentFacts& f, std::vector<std::string>& evidence) {
  auto normalise = [](std::string c) {
    if (c == "lxc-libvirt") return std::string("lxc");
    if (c == "oci") return std::string("docker");
    return c;
  };
  if (!f.pid1_container.empty()) {
    evidence.push_back("/proc/1/environ: container=" + f.pid1_container);
    return normalise(f.pid1_container);
  }
  if (!f.systemd_container.empty()) {
    evidence.push_back("/run/systemd/container: " + f.systemd_container);
    return normalise(f.systemd_container);
  }
  if (f.dockerenv) {
    evidence.push_back("/.dockerenv exists");
    return "docker";
  }
  if (f.containerenv) {
    evidence.push_back("/run/.containerenv exists");
    return "podman";
  }
  // Last resort: the cgroup path. With a cgroup namespace it is often just "/", so absence proves
  // nothing.
  for (const char* tag : {"docker", "lxc", "libpod", "kubepods"}) {
    if (f.self_cgroup.find(tag) != std::string::npos) {
      evidence.push_back(std::string("/proc/self/cgroup mentions ") + tag);
      const std::string t = tag;
      return t == "libpod" ? "podman" : (t == "kubepods" ? "docker" : t);
    }
  }
  return "";
}

}  // namespace

EnvironmentFacts read_environment_facts(const std::string& root, bool live) {
  namespace fs = std::filesystem;
  const std::string r = root == "/" ? "" : root;
  EnvironmentFacts f;
  f.cpu_hypervisor_flag =
      cpuinfo_has_hypervisor_flag(try_read_text_file(r + "/proc/cpuinfo").value_or(""));
  f.hypervisor_type = read_trimmed(r + "/sys/hypervisor/type");
  f.dmi_sys_vendor = read_trimmed(r + "/sys/class/dmi/id/sys_vendor");
  f.dmi_product_name = read_trimmed(r + "/sys/class/dmi/id/product_name");
  f.pid1_container = container_from_environ(try_read_text_file(r + "/proc/1/environ").value_or(""));
  f.systemd_container = read_trimmed(r + "/run/systemd/container");
  std::error_code ec;
  f.dockerenv = fs::exists(r + "/.dockerenv", ec);
  f.containerenv = fs::exists(r + "/run/.containerenv", ec);
  f.self_cgroup = trim(try_read_text_file(r + "/proc/self/cgroup").value_or(""));
  if (live) f.hypervisor_vendor = cpuid_hypervisor_vendor();
  return f;
}

bool inside_a_vm(const Environment& e) {
  return e.kind == "vm" || !e.hypervisor.empty() || e.virtualization_mode == "Pass-Through";
}

Environment classify_environment(const EnvironmentFacts& f) {
  Environment e;
  e.virtualization_mode = f.nvml_virtualization_mode;
  // A container is the closer wrapper: an LXC container inside a VM still sees the VM's PCIe,
  // but what the user controls is the container, so it wins the headline; the hypervisor stays
  // recorded.
  e.container = container_kind(f, e.evidence);
  const bool vm = f.cpu_hypervisor_flag || !f.hypervisor_vendor.empty() ||
                  !f.hypervisor_type.empty() || f.nvml_virtualization_mode == "Pass-Through" ||
                  f.nvml_virtualization_mode == "vGPU";
  if (vm) {
    e.hypervisor = hypervisor_name(f);
    if (f.cpu_hypervisor_flag) e.evidence.push_back("/proc/cpuinfo flags: hypervisor");
    if (!f.hypervisor_vendor.empty())
      e.evidence.push_back("CPUID hypervisor vendor: " + f.hypervisor_vendor);
    if (!f.dmi_sys_vendor.empty()) e.evidence.push_back("DMI sys_vendor: " + f.dmi_sys_vendor);
    if (!f.nvml_virtualization_mode.empty())
      e.evidence.push_back("NVML virtualization mode: " + f.nvml_virtualization_mode);
  }
  if (!e.container.empty()) {
    e.kind = "container";
  } else if (vm) {
    e.kind = "vm";
  } else {
    e.kind = "bare-metal";
    e.evidence.push_back("no hypervisor flag, no container marker");
  }
  return e;
}

void to_json(nlohmann::json& j, const EnvironmentFacts& f) {
  j = {{"cpu_hypervisor_flag", f.cpu_hypervisor_flag},
       {"hypervisor_vendor", f.hypervisor_vendor},
       {"hypervisor_type", f.hypervisor_type},
       {"dmi_sys_vendor", f.dmi_sys_vendor},
       {"dmi_product_name", f.dmi_product_name},
       {"pid1_container", f.pid1_container},
       {"systemd_container", f.systemd_container},
       {"dockerenv", f.dockerenv},
       {"containerenv", f.containerenv},
       {"self_cgroup", f.self_cgroup},
       {"nvml_virtualization_mode", f.nvml_virtualization_mode}};
}

EnvironmentFacts environment_facts_from_json(const nlohmann::json& j, const std::string& where) {
  StrictReader in(j, where);
  EnvironmentFacts f;
  in.get("cpu_hypervisor_flag", f.cpu_hypervisor_flag);
  in.get("hypervisor_vendor", f.hypervisor_vendor);
  in.get("hypervisor_type", f.hypervisor_type);
  in.get("dmi_sys_vendor", f.dmi_sys_vendor);
  in.get("dmi_product_name", f.dmi_product_name);
  in.get("pid1_container", f.pid1_container);
  in.get("systemd_container", f.systemd_container);
  in.get("dockerenv", f.dockerenv);
  in.get("containerenv", f.containerenv);
  in.get("self_cgroup", f.self_cgroup);
  in.get("nvml_virtualization_mode", f.nvml_virtualization_mode);
  in.finish();
  return f;
}

void from_json(const nlohmann::json& j, EnvironmentFacts& f) {
  f = environment_facts_from_json(j, "environment");
}

void to_json(nlohmann::json& j, const Environment& e) {
  j = {{"kind", e.kind},
       {"hypervisor", e.hypervisor},
       {"container", e.container},
       {"virtualization_mode", e.virtualization_mode},
       {"evidence", e.evidence}};
}

Environment environment_from_json(const nlohmann::json& j, const std::string& where) {
  StrictReader in(j, where);
  Environment e;
  in.get("kind", e.kind);
  in.get("hypervisor", e.hypervisor);
  in.get("container", e.container);
  in.get("virtualization_mode", e.virtualization_mode);
  in.get("evidence", e.evidence);
  in.finish();
  return e;
}

void from_json(const nlohmann::json& j, Environment& e) {
  e = environment_from_json(j, "environment");
}

}  // namespace p2p::topo
