// Pure readings of the facts about the driver: whether its modules are loaded (or were never
// built), the module's flavour and version, whether CUDA and NVML initialise, the libraries'
// versions and paths, and the module parameters.
#include <algorithm>
#include <cctype>

#include "doctor/derived.hpp"
#include "doctor/derived_match.hpp"
#include "doctor/knowledge/driver_statements.hpp"

namespace p2p::doctor {

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
