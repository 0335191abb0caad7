#include "doctor/knowledge/driver_statements.hpp"

#include <algorithm>
#include <regex>

#include "doctor/derived.hpp"
#include "doctor/derived_match.hpp"
#include "doctor/knowledge/driver_tables.hpp"
#include "doctor/knowledge/xid_catalog.hpp"

namespace p2p::doctor {

namespace {

constexpr std::size_t kMaxContinuationLines = 10;

// A line that starts a record of its own, so it cannot continue the sentence before it.
bool starts_record(const std::string& line) {
  for (const char* start : {"The NVIDIA", "Xid", "loading NVIDIA", "No NVIDIA GPU", "probe routine",
                            "None of the NVIDIA", "GPU at PCI"})
    if (contains(line, start)) return true;
  return false;
}

std::string continuation(const std::string& line) {
  std::string s = line.substr(line.find("NVRM:") + 5);
  return s.substr(std::min(s.find_first_not_of(' '), s.size()));
}

// The sentence that starts at `lines[i]`, joined with the NVRM lines that continue it.
std::string joined_record(const std::vector<std::string>& lines, std::size_t i) {
  std::string text = lines[i];
  for (std::size_t j = i + 1; j < lines.size() && j <= i + kMaxContinuationLines; ++j) {
    if (!contains(lines[j], "NVRM:") || starts_record(lines[j])) break;
    text += " " + continuation(lines[j]);
  }
  return text;
}

std::optional<std::string> match(const std::string& text, const std::regex& re) {
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nullopt;
  return m[1].str();
}

// GPUs of an architecture whose last branch is `branch`; else the GPUs nvidia does not drive.
std::vector<std::string> legacy_gpus(const Facts& f, int branch) {
  std::vector<std::string> by_table, unbound;
  for (const auto& g : gpus(f)) {
    if (g.pci == nullptr) continue;
    const ArchitectureSupport* a = architecture_of_device(g.pci->device_id);
    if (a != nullptr && a->last_branch == branch) by_table.push_back(g.bdf);
    if (g.pci->driver.absent() || (g.pci->driver.present() && g.pci->driver.value != "nvidia"))
      unbound.push_back(g.bdf);
  }
  return by_table.empty() ? unbound : by_table;
}

std::optional<DriverStatement> refusal(const Facts& f, const std::string& text) {
  static const std::regex kBranch("supported through the NVIDIA ([0-9]+)\\.xx Legacy");
  static const std::regex kName("The NVIDIA (.+?) GPU installed");
  static const std::regex kIgnoring("The ([0-9][0-9.]+) NVIDIA driver will ignore");
  static const std::regex kRelease("not supported by the ([0-9][0-9.]+) NVIDIA");
  DriverStatement s;
  s.quote = text;
  if (contains(text, "Legacy drivers") && contains(text, "supported through the NVIDIA")) {
    s.kind = DriverStatement::Kind::kLegacyBranch;
    if (const auto b = match(text, kBranch)) s.legacy_branch = std::stoi(*b);
    s.gpu_name = match(text, kName);
    s.driver = match(text, kIgnoring);
    s.gpus = s.legacy_branch ? legacy_gpus(f, *s.legacy_branch) : std::vector<std::string>{};
    return s;
  }
  if (contains(text, "not supported by open nvidia.ko")) {
    s.kind = DriverStatement::Kind::kOpenModuleNoGsp;
  } else if (contains(text, "is not supported by the") && contains(text, "driver release")) {
    s.kind = DriverStatement::Kind::kUnsupportedByRelease;
    s.driver = match(text, kRelease);
  } else {
    return std::nullopt;
  }
  s.gpus = gpus_named(f, {text});
  if (s.gpus.empty()) s.gpus = bdfs_in_line(text);  // a GPU the facts do not list otherwise
  return s;
}

std::optional<DriverStatement> reset_request(const Facts& f, const std::string& line) {
  DriverStatement s;
  s.kind = DriverStatement::Kind::kResetRequired;
  s.quote = line;
  s.gpus = gpus_named(f, {line});
  if (const auto xid = xid_code(line); xid && *xid == 154) {
    s.recovery_action = recovery_action_in_line(line);
    if (!s.recovery_action || *s.recovery_action == 0) return std::nullopt;
    return s;
  }
  if (contains(line, "NV_ERR_RESET_REQUIRED") || contains(line, "GPU marked for reset")) return s;
  return std::nullopt;
}

std::string open_module_fix() {
  return "the open kernel modules drive only GPUs with a GSP (Turing and newer): install the "
         "proprietary kernel module of the same driver release (the .run installer with "
         "-m=kernel, or the distribution's non-open package; with negativo17's packages set "
         "kernel-open back to kernel in /etc/nvidia/kernel.conf and rebuild with akmods), then "
         "reboot; the proprietary module drives Turing and newer GPUs too (all but Blackwell)";
}

std::string legacy_fix(const DriverStatement& s) {
  const int branch = s.legacy_branch.value_or(0);
  const ArchitectureSupport* a = architecture_last_supported_by(branch);
  std::string fix = "install the NVIDIA " + std::to_string(branch) + ".xx legacy driver";
  if (a != nullptr && *a->last_release)
    fix += std::string(" (its last release is ") + a->last_release + ")";
  if (a != nullptr)
    fix += std::string(", the last branch that supports ") + a->architecture + " GPUs";
  if (s.gpu_name) fix += " such as the " + *s.gpu_name;
  fix += "; newer drivers";
  if (s.driver) fix += " (this " + *s.driver + " among them)";
  return fix +
         " ignore it. Or use a GPU the installed driver supports (NVIDIA's legacy GPU list: " +
         kLegacyGpuSource + ")";
}

}  // namespace

std::string refusal_fix(const DriverStatement& s) {
  switch (s.kind) {
    case DriverStatement::Kind::kLegacyBranch: return legacy_fix(s);
    case DriverStatement::Kind::kOpenModuleNoGsp: return open_module_fix();
    case DriverStatement::Kind::kUnsupportedByRelease:
      return "install a driver release whose supported-GPU list (Appendix A of its README) "
             "includes this GPU: a legacy branch for an old GPU, a newer release for a new one (" +
             std::string(kLegacyGpuSource) + ")";
    case DriverStatement::Kind::kResetRequired: break;
  }
  return "";
}

std::optional<std::string> installed_driver(const Facts& f) {
  if (auto v = module_version(f)) return v;
  if (auto v = library_version(f.cuda.library_path)) return v;
  if (auto v = library_version(f.nvml.library_path)) return v;
  static const std::regex kLoading("Kernel Module.*?\\s([0-9]+\\.[0-9]+(?:\\.[0-9]+)?)\\s");
  if (f.kernel.log_lines.present())
    for (auto it = f.kernel.log_lines.value.rbegin(); it != f.kernel.log_lines.value.rend(); ++it)
      if (contains(*it, "loading NVIDIA UNIX"))
        if (auto v = match(*it, kLoading)) return v;
  return std::nullopt;
}

bool open_module_installed(const Facts& f) {
  if (module_flavour(f) != Flavour::kUnknown) return module_flavour(f) == Flavour::kOpen;
  if (f.kernel.log_lines.present())
    for (auto it = f.kernel.log_lines.value.rbegin(); it != f.kernel.log_lines.value.rend(); ++it)
      if (contains(*it, "loading NVIDIA UNIX")) return contains(*it, "Open Kernel Module");
  return !statements_of(f, DriverStatement::Kind::kOpenModuleNoGsp).empty();
}

ModuleReloads::ModuleReloads(const std::vector<std::string>& lines) {
  for (std::size_t j = lines.size(); j-- > 0;) {
    if (contains(lines[j], "loading NVIDIA UNIX") && contains(lines[j], "Kernel Module")) {
      last_load_ = j;
      return;
    }
  }
}

std::vector<DriverStatement> driver_statements(const Facts& f) {
  std::vector<DriverStatement> out;
  if (!f.kernel.log_lines.present()) return out;
  const auto& lines = f.kernel.log_lines.value;
  const ModuleReloads reloads(lines);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (contains(lines[i], "The NVIDIA")) {
      if (auto s = refusal(f, joined_record(lines, i))) out.push_back(*s);
    } else if (!reloads.after(i)) {
      if (auto s = reset_request(f, lines[i])) out.push_back(*s);
    }
  }
  return out;
}

std::vector<DriverStatement> statements_of(const Facts& f, DriverStatement::Kind kind) {
  std::vector<DriverStatement> out;
  for (auto& s : driver_statements(f))
    if (s.kind == kind) out.push_back(s);
  return out;
}

std::optional<DriverStatement> first_refusal(const Facts& f) {
  for (auto& s : driver_statements(f))
    if (s.kind != DriverStatement::Kind::kResetRequired) return s;
  return std::nullopt;
}

bool driver_refused_gpus(const Facts& f) { return first_refusal(f).has_value(); }

std::vector<std::string> refused_gpus(const Facts& f) {
  std::vector<std::string> out;
  for (const auto& s : driver_statements(f))
    if (s.kind != DriverStatement::Kind::kResetRequired)
      out.insert(out.end(), s.gpus.begin(), s.gpus.end());
  return out;
}

}  // namespace p2p::doctor
