// Readings of the facts that weigh one piece of evidence against another: which GPUs a kernel
// log line names, how the IOMMU treats the GPUs, which GPUs the *_VISIBLE_DEVICES variables
// name, how many GPUs CUDA can use of those present, and what Fabric Manager's log says.
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "common/text.hpp"
#include "doctor/derived.hpp"
#include "doctor/derived_match.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(trim(item));
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

VisibleDevices judge_list(const std::string& variable, const std::string& value, int gpus_here,
                          const std::vector<std::string>& uuids, bool indices_are_local) {
  VisibleDevices v;
  v.variable = variable;
  v.value = value;
  v.gpus_here = gpus_here;
  const std::string t = trim(value);
  if (t.empty() || t == "-1" || t == "none" || t == "void" || t == "NoDevFiles") {
    v.hides_all = true;
    return v;
  }
  if (t == "all") {
    v.usable = gpus_here;
    return v;
  }
  bool stopped = false;
  for (const auto& e : split(t, ',')) {
    ++v.entries;
    bool here = true;  // unknown counts as here: no alarm without evidence
    if (all_digits(e)) {
      // Indices of NVIDIA_VISIBLE_DEVICES are the host's, renumbered from 0 inside the
      // container: they cannot be checked from in here.
      if (indices_are_local && gpus_here >= 0) here = std::stoll(e) < gpus_here;
    } else if (e.rfind("MIG-", 0) == 0) {
      // A MIG instance: NVML's list holds the parent GPUs' UUIDs only, so it cannot be checked.
      v.mig.push_back(e);
    } else if (e.rfind("GPU-", 0) == 0) {
      // CUDA accepts any unique prefix of a UUID.
      if (!uuids.empty())
        here = std::any_of(uuids.begin(), uuids.end(),
                           [&](const std::string& u) { return lower(u).rfind(lower(e), 0) == 0; });
    } else {
      here = false;  // "-1" inside a list, a typo, a name
    }
    if (stopped) {
      if (here) v.lost.push_back(e);
      continue;
    }
    if (here) {
      ++v.usable;
    } else {
      v.missing.push_back(e);
      // CUDA stops at the first invalid entry; the container runtime rejects the whole list.
      stopped = true;
    }
  }
  return v;
}

}  // namespace

SmallBar1 small_bar1(const Facts& f) {
  SmallBar1 out;
  const auto failed_init = gpus_named(f, log_signals(f).rm_init);
  for (const auto& g : gpus(f)) {
    std::optional<std::uint64_t> bytes;
    if (g.nvml != nullptr && g.nvml->bar1_total_bytes)
      bytes = g.nvml->bar1_total_bytes;
    else if (g.pci != nullptr && g.pci->bar1_bytes)
      bytes = g.pci->bar1_bytes;
    if (!bytes) continue;
    ++out.known;
    out.sizes.push_back(g.bdf + " BAR1 " + bytes_text(*bytes));
    if (*bytes > kSmallBar1Bytes) continue;
    const bool no_resizable_bar =
        g.generation.name == "pre-Turing" || g.generation.name == "Turing";
    (no_resizable_bar ? out.fixed_size : out.fixable).push_back(g.bdf);
    if (std::find(failed_init.begin(), failed_init.end(), g.bdf) != failed_init.end())
      out.init_failed.push_back(g.bdf);
  }
  return out;
}

std::vector<std::string> gpus_named(const Facts& f, const std::vector<std::string>& lines) {
  std::set<std::string> gpu_bdfs, named;
  for (const auto& g : gpus(f)) gpu_bdfs.insert(g.bdf);
  for (const auto& l : lines)
    for (const auto& b : bdfs_in_line(l))
      if (gpu_bdfs.count(b)) named.insert(b);
  return {named.begin(), named.end()};
}

IommuState iommu_state(const Facts& f) {
  IommuState s;
  const auto& io = f.iommu;
  bool pt_flag = false, off_flag = false;
  if (f.kernel.cmdline.present()) {
    std::istringstream in(f.kernel.cmdline.value);
    for (std::string w; in >> w;) {
      if (w.rfind("intel_iommu=", 0) == 0 || w.rfind("amd_iommu=", 0) == 0 ||
          w.rfind("iommu=", 0) == 0 || w.rfind("iommu.passthrough=", 0) == 0 ||
          w.rfind("pci=disable_acs_redir", 0) == 0)
        s.flags.push_back(w);
      pt_flag = pt_flag || w == "iommu=pt" || w == "iommu.passthrough=1";
      off_flag = off_flag || w == "iommu=off" || w == "intel_iommu=off" || w == "amd_iommu=off";
    }
  }
  for (const auto& g : gpus(f))
    if (g.pci != nullptr && g.pci->iommu_group_type &&
        g.pci->iommu_group_type->rfind("DMA", 0) == 0)
      s.translating.push_back(g.bdf + " " + *g.pci->iommu_group_type);
  // Without per-GPU group types, translating groups anywhere on an IOMMU-enabled host count.
  if (s.translating.empty() && io.units.present() && !io.units.value.empty() &&
      io.group_types.present()) {
    bool gpu_types_known = false;
    for (const auto& g : gpus(f))
      gpu_types_known = gpu_types_known || (g.pci != nullptr && g.pci->iommu_group_type);
    if (!gpu_types_known)
      for (const auto& [type, n] : io.group_types.value)
        if (type.rfind("DMA", 0) == 0)
          s.translating.push_back(std::to_string(n) + " group(s) " + type);
  }
  using M = IommuState::Mode;
  if (!s.translating.empty())
    s.mode = M::kTranslated;
  else if (io.units.present())
    s.mode = io.units.value.empty() ? M::kOff : M::kPassthrough;
  else if (pt_flag)
    s.mode = M::kPassthrough;
  else if (off_flag)
    s.mode = M::kOff;
  return s;
}

const char* to_string(IommuState::Mode m) {
  switch (m) {
    case IommuState::Mode::kOff: return "off";
    case IommuState::Mode::kPassthrough: return "passthrough";
    case IommuState::Mode::kTranslated: return "translated";
    case IommuState::Mode::kUnknown: break;
  }
  return "unknown";
}

std::vector<VisibleDevices> visible_devices(const Facts& f) {
  std::vector<VisibleDevices> out;
  // NVML ignores CUDA_VISIBLE_DEVICES: its count and UUIDs are the GPUs really here.
  const int here = nvml_works(f) ? f.nvml.device_count.value_or(-1) : -1;
  std::vector<std::string> uuids;
  for (const auto& d : f.nvml.devices)
    if (d.uuid) uuids.push_back(*d.uuid);
  if (const auto it = f.env.find("CUDA_VISIBLE_DEVICES"); it != f.env.end())
    out.push_back(judge_list(it->first, it->second, here, uuids, true));
  // The container runtime reads NVIDIA_VISIBLE_DEVICES when the container is created; outside a
  // container it means nothing.
  if (const auto it = f.env.find("NVIDIA_VISIBLE_DEVICES"); it != f.env.end() && in_container(f))
    out.push_back(judge_list(it->first, it->second, here, uuids, false));
  return out;
}

GpuUse gpu_use(const Facts& f) {
  GpuUse u;
  if (f.cuda.status != ProbeStatus::kCompleted) return u;
  for (const auto& v : visible_devices(f))
    if (v.variable == "CUDA_VISIBLE_DEVICES" && !v.hides_all && v.missing.empty() &&
        v.value != "all")
      u.masked = true;
  const bool container = in_container(f);
  for (const auto& g : gpus(f)) {
    // Inside a container sysfs shows every GPU of the host; only those NVML lists are ours.
    const bool ours = container ? g.nvml != nullptr : (g.pci != nullptr || g.nvml != nullptr);
    if (!ours) continue;
    ++u.expected;
    const bool works = cuda_works(f) && g.cuda != nullptr &&
                       g.cuda->context_result.value_or(0) == 0 &&
                       g.cuda->alloc_result.value_or(0) == 0;
    if (works)
      ++u.working;
    else
      u.unusable.push_back(g.bdf);
  }
  return u;
}

Binding binding(const Facts& f) {
  Binding b;
  for (const auto& g : gpus(f)) {
    if (g.pci == nullptr || g.pci->driver.unknown()) continue;
    ++b.known;
    if (g.pci->driver.absent())
      b.unbound.push_back(g.bdf);
    else if (g.pci->driver.value == "nvidia")
      b.nvidia.push_back(g.bdf);
    else
      b.other[g.pci->driver.value].push_back(g.bdf);
  }
  const auto& m = f.kernel.modules;
  b.nouveau_loaded =
      m.present() && std::find(m.value.begin(), m.value.end(), "nouveau") != m.value.end();
  b.nvidia_userspace = f.cuda.library_path.has_value() || f.nvml.library_path.has_value();
  return b;
}

std::string unbind_fix(const std::string& driver, const std::vector<std::string>& bdfs) {
  const std::string first = bdfs.empty() ? std::string("<bdf>") : bdfs.front();
  if (driver == "nouveau")
    return "keep nouveau off the GPUs: put `blacklist nouveau` and `options nouveau modeset=0` in "
           "/etc/modprobe.d/blacklist-nouveau.conf, rebuild the initramfs (update-initramfs -u, or dracut -f), make sure "
           "the nvidia module is built for the running kernel (dkms status; dkms autoinstall), then reboot";
  if (driver == "vfio-pci")
    return "remove vfio-pci.ids= from the kernel command line and the modprobe.d entry, rebuild the initramfs, then "
           "rebind to nvidia (echo " +
           first + " > /sys/bus/pci/drivers/vfio-pci/unbind; modprobe nvidia) or reboot";
  return "unbind the GPU(s) from " + driver + " (echo " + first + " > /sys/bus/pci/drivers/" +
         driver + "/unbind), keep " + driver +
         " from claiming them (blacklist it, or drop its ids= option), rebuild the "
         "initramfs, then load nvidia";
}

FabricManagerLog fabric_manager_log(const Facts& f) {
  FabricManagerLog out;
  if (!f.fabric_manager.log_lines.present()) return out;
  auto word_after = [](const std::string& line,
                       const std::string& key) -> std::optional<std::string> {
    const auto at = line.find(key);
    if (at == std::string::npos) return std::nullopt;
    std::string w;
    for (std::size_t i = at + key.size();
         i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) || line[i] == '.');
         ++i)
      w += line[i];
    while (!w.empty() && w.back() == '.') w.pop_back();  // the sentence's full stop
    if (w.empty()) return std::nullopt;
    return w;
  };
  for (const auto& l : f.fabric_manager.log_lines.value) {
    // "fabric manager NVIDIA GPU driver interface version 550.127.05 don't match with driver
    // version 550.120."
    if (contains(l, "interface version") && contains(l, "driver version") && contains(l, "match")) {
      out.mismatch.push_back(l);
      out.version = word_after(l, "interface version ");
      out.driver_version_seen = word_after(l, "driver version ");
    }
  }
  return out;
}

}  // namespace p2p::doctor
