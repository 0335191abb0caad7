// Kernel module state, firmware, cgroups, IOMMU, daemons and environment, from files.
#include <algorithm>
#include <sstream>

#include "doctor/collect/collect.hpp"
#include "doctor/collect/collect_io.hpp"

namespace p2p::doctor {

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// "Name: value" lines (/proc/driver/nvidia/params, the GPU information files).
std::map<std::string, std::string> colon_pairs(const std::string& text) {
  std::map<std::string, std::string> out;
  for (const auto& line : io::split_lines(text)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    out[io::trim(line.substr(0, colon))] = io::trim(line.substr(colon + 1));
  }
  return out;
}

// The "Character devices:" section of /proc/devices: name -> major.
std::map<std::string, int> char_majors(const std::string& text) {
  std::map<std::string, int> out;
  bool in_char = false;
  for (const auto& line : io::split_lines(text)) {
    if (line.rfind("Character devices", 0) == 0) {
      in_char = true;
      continue;
    }
    if (line.rfind("Block devices", 0) == 0) break;
    if (!in_char) continue;
    std::istringstream words(line);
    int major = 0;
    std::string name;
    if (words >> major >> name) out[name] = major;
  }
  return out;
}

}  // namespace

KernelFacts collect_kernel(const std::string& root, const std::vector<std::string>& gpu_bdfs) {
  const std::string r = io::root_prefix(root);
  KernelFacts k;
  const auto modules = io::read_file(r + "/proc/modules");
  k.modules.seen = modules.seen;
  k.modules.error = modules.error;
  if (modules.present())
    for (const auto& line : io::split_lines(modules.value)) {
      const std::string name = line.substr(0, line.find(' '));
      if (!name.empty()) k.modules.value.push_back(name);
    }
  const auto sys_module = io::list_dir(r + "/sys/module/nvidia");
  k.sys_module_nvidia.seen = sys_module.seen;
  k.sys_module_nvidia.error = sys_module.error;
  k.sys_module_nvidia.value = sys_module.present();
  k.nvidia_version_text = io::read_file(r + "/proc/driver/nvidia/version");
  if (k.nvidia_version_text.present()) {
    const auto lines = io::split_lines(k.nvidia_version_text.value);
    k.nvidia_version_text.value = lines.empty() ? "" : io::trim(lines.front());
  }
  k.module_version = io::read_trimmed(r + "/sys/module/nvidia/version");
  const auto params = io::read_file(r + "/proc/driver/nvidia/params");
  k.params.seen = params.seen;
  k.params.error = params.error;
  if (params.present()) k.params.value = colon_pairs(params.value);
  k.uvm_disable_hmm = io::read_trimmed(r + "/sys/module/nvidia_uvm/parameters/uvm_disable_hmm");
  const auto devices = io::read_file(r + "/proc/devices");
  k.char_majors.seen = devices.seen;
  k.char_majors.error = devices.error;
  if (devices.present()) k.char_majors.value = char_majors(devices.value);
  k.cmdline = io::read_trimmed(r + "/proc/cmdline");
  k.release = io::read_trimmed(r + "/proc/sys/kernel/osrelease");
  if (k.release.present() && !k.release.value.empty()) {
    const auto dep = io::read_file(r + "/lib/modules/" + k.release.value + "/modules.dep");
    k.module_files.seen = dep.seen;
    k.module_files.error = dep.error;
    if (dep.present()) k.module_files.value = nvidia_module_files(dep.value);
  }
  k.log_lines = collect_kernel_log(root, k.log_source, gpu_bdfs);
  return k;
}

std::vector<std::string> nvidia_module_files(const std::string& modules_dep) {
  std::vector<std::string> out;
  for (const auto& line : io::split_lines(modules_dep)) {
    const std::string path = line.substr(0, line.find(':'));
    const std::string base =
        path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    const std::string name = base.substr(0, base.find(".ko"));
    if (base.find(".ko") == std::string::npos) continue;
    if (name == "nvidia" || name.rfind("nvidia-", 0) == 0 || name.rfind("nvidia_", 0) == 0)
      out.push_back(path);
  }
  return out;
}

FirmwareFacts collect_firmware(const std::string& root,
                               const std::optional<std::string>& module_version) {
  const std::string r = io::root_prefix(root);
  FirmwareFacts fw;
  fw.versions = io::list_dir(r + "/lib/firmware/nvidia");
  if (!module_version)
    return fw;  // gsp_files stays not_checked: we do not know which directory to look in
  auto files = io::list_dir(r + "/lib/firmware/nvidia/" + *module_version);
  if (files.present()) {
    std::vector<std::string> gsp;
    for (const auto& n : files.value)
      if (n.rfind("gsp_", 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".bin")
        gsp.push_back(n);
    files.value = gsp;
  }
  fw.gsp_files = files;
  return fw;
}

CgroupFacts collect_cgroup(const std::string& root) {
  const std::string r = io::root_prefix(root);
  CgroupFacts c;
  const auto self = io::read_file(r + "/proc/self/cgroup");
  bool any_v1 = false;
  if (self.present()) {
    // "hierarchy-id:controller-list:path"
    for (const auto& line : io::split_lines(self.value)) {
      const auto a = line.find(':');
      const auto b = line.find(':', a == std::string::npos ? 0 : a + 1);
      if (a == std::string::npos || b == std::string::npos) continue;
      const std::string id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1),
                        path = line.substr(b + 1);
      if (id == "0" && controllers.empty()) {
        c.v2_path = path;
        continue;
      }
      any_v1 = true;
      std::istringstream list(controllers);
      for (std::string ctl; std::getline(list, ctl, ',');)
        if (ctl == "devices") c.v1_devices_path = path;
    }
  }
  const bool unified_root = io::exists(r + "/sys/fs/cgroup/cgroup.controllers");
  if (unified_root && !any_v1)
    c.hierarchy = "v2";
  else if (any_v1 && c.v2_path)
    c.hierarchy = "hybrid";
  else if (any_v1)
    c.hierarchy = "v1";
  else if (c.v2_path)
    c.hierarchy = "v2";
  if (c.v1_devices_path) {
    std::string path = *c.v1_devices_path;
    if (path == "/") path.clear();
    std::string file = "/sys/fs/cgroup/devices" + path + "/devices.list";
    // /proc/self/mountinfo says where our devices cgroup really is mounted (a container without a
    // cgroup namespace mounts its own cgroup at /sys/fs/cgroup/devices, not under the host's path).
    const auto mountinfo = io::read_file(r + "/proc/self/mountinfo");
    if (mountinfo.present())
      if (const auto resolved = v1_devices_list_path(mountinfo.value, *c.v1_devices_path))
        file = *resolved;
    c.devices_list = io::read_trimmed(r + file);
    c.devices_list_path = file;
  } else {
    c.devices_list = Observed<std::string>::missing();  // v2 has no devices.list
  }
  return c;
}

IommuFacts collect_iommu(const std::string& root) {
  const std::string r = io::root_prefix(root);
  IommuFacts io_facts;
  io_facts.units = io::list_dir(r + "/sys/class/iommu");
  const auto groups = io::list_dir(r + "/sys/kernel/iommu_groups");
  io_facts.group_types.seen = groups.seen;
  io_facts.group_types.error = groups.error;
  if (groups.present())
    for (const auto& g : groups.value) {
      const auto type = io::read_trimmed(r + "/sys/kernel/iommu_groups/" + g + "/type");
      if (type.present() && !type.value.empty()) ++io_facts.group_types.value[type.value];
    }
  return io_facts;
}

Observed<std::vector<std::string>> collect_daemons(const std::string& root) {
  const std::string r = io::root_prefix(root);
  auto pids = io::list_dir(r + "/proc");
  Observed<std::vector<std::string>> out;
  out.seen = pids.seen;
  out.error = pids.error;
  if (!pids.present()) return out;
  for (const auto& pid : pids.value) {
    if (!all_digits(pid)) continue;
    const auto comm = io::read_trimmed(r + "/proc/" + pid + "/comm");
    if (!comm.present()) continue;
    // comm is cut at 15 characters: "nv-fabricmanage", "nvidia-persiste". nvidia-gridd holds a
    // vGPU guest's licence.
    for (const char* daemon : {"nv-fabricmanager", "nvidia-persistenced", "nvidia-gridd"})
      if (comm.value == std::string(daemon).substr(0, 15) &&
          std::find(out.value.begin(), out.value.end(), daemon) == out.value.end())
        out.value.push_back(daemon);
  }
  std::sort(out.value.begin(), out.value.end());
  return out;
}

std::map<std::string, std::string> collect_env(const std::string& root) {
  // /proc/self/environ on the live host is this process's environment at exec; under a
  // fixture root it is whatever environment the capture recorded.
  std::map<std::string, std::string> out;
  const auto environ = io::read_file(io::root_prefix(root) + "/proc/self/environ", 1u << 20);
  if (!environ.present()) return out;
  std::size_t start = 0;
  const std::string& s = environ.value;
  while (start < s.size()) {
    std::size_t end = s.find('\0', start);
    if (end == std::string::npos) end = s.size();
    const std::string entry = s.substr(start, end - start);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) {
      const std::string key = entry.substr(0, eq);
      if (key.rfind("NCCL_", 0) == 0 || key.rfind("CUDA_", 0) == 0 || key == "LD_LIBRARY_PATH" ||
          key == "NVIDIA_VISIBLE_DEVICES" || key == "NVIDIA_DRIVER_CAPABILITIES")
        out[key] = entry.substr(eq + 1);
    }
    start = end + 1;
  }
  return out;
}

std::optional<std::string> v1_devices_list_path(const std::string& mountinfo,
                                                const std::string& cgroup_path) {
  // "36 25 0:31 /docker/4f1c... /sys/fs/cgroup/devices ro,nosuid ... - cgroup cgroup rw,devices"
  for (const auto& line : io::split_lines(mountinfo)) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream after(line.substr(dash + 3));
    std::string fstype, source, options;
    if (!(after >> fstype >> source >> options) || fstype != "cgroup") continue;
    std::istringstream opts(options);
    bool devices = false;
    for (std::string o; std::getline(opts, o, ',');) devices = devices || o == "devices";
    if (!devices) continue;
    std::istringstream before(line.substr(0, dash));
    std::string id, parent, dev, mount_root, mount_point;
    if (!(before >> id >> parent >> dev >> mount_root >> mount_point)) continue;
    std::string below = cgroup_path;
    if (mount_root != "/") {
      // Our cgroup must lie at or below what is mounted; the part below it is the subdirectory.
      if (below.rfind(mount_root, 0) != 0) {
        below = "/";  // mounted is our own cgroup's ancestor view: the mount point is ours
      } else {
        below = below.substr(mount_root.size());
      }
    }
    if (below.empty() || below == "/") return mount_point + "/devices.list";
    return mount_point + below + "/devices.list";
  }
  return std::nullopt;
}

FabricManagerFacts collect_fabric_manager(const std::string& root) {
  constexpr std::size_t kKeep = 40;
  FabricManagerFacts fm;
  fm.log_path = "/var/log/fabricmanager.log";
  const auto text = io::read_file(io::root_prefix(root) + fm.log_path, 8u << 20);
  fm.log_lines.seen = text.seen;
  fm.log_lines.error = text.error;
  if (!text.present()) return fm;
  std::vector<std::string> kept;
  for (const auto& line : io::split_lines(text.value)) {
    const std::string lower = [&] {
      std::string l = line;
      for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return l;
    }();
    if (lower.find("version") != std::string::npos || lower.find("error") != std::string::npos)
      kept.push_back(line);
  }
  // The latest lines tell the present state; a log of many restarts keeps only its tail.
  if (kept.size() > kKeep) kept.erase(kept.begin(), kept.end() - static_cast<long>(kKeep));
  fm.log_lines.value = kept;
  return fm;
}

NcclTopoFileFacts collect_nccl_topo_file(const std::string& root,
                                         const std::map<std::string, std::string>& env) {
  NcclTopoFileFacts t;
  const std::string r = io::root_prefix(root);
  if (const auto it = env.find("NCCL_TOPO_FILE"); it != env.end() && !it->second.empty()) {
    t.path = it->second;
    t.set_by = "environment";
  } else if (const auto conf = io::read_file(r + "/etc/nccl.conf", 1u << 20); conf.present()) {
    t.path = nccl_conf_topo_file(conf.value);
    t.set_by = "/etc/nccl.conf";
  }
  if (!t.checked()) return t;
  // A relative path is NCCL's working directory's, which the doctor cannot know: read as given.
  const auto xml = io::read_file((t.path.rfind('/', 0) == 0 ? r : "") + t.path, 16u << 20);
  if (xml.present()) {
    t.gpus = Observed<std::vector<std::string>>::of(nccl_topo_file_gpus(xml.value));
  } else {
    t.gpus.seen = xml.seen;
    t.gpus.error = xml.error;
  }
  return t;
}

}  // namespace p2p::doctor
