// Device nodes, the UVM major, read-write opens, and the cgroup device policy.
#include <algorithm>
#include <set>
#include <sstream>

#include "doctor/derived.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

constexpr int kNvidiaMajor = 195;  // fixed for nvidiactl and nvidiaN

const DeviceNode* node(const Facts& f, const std::string& path) {
  if (!f.device_nodes.present()) return nullptr;
  for (const auto& n : f.device_nodes.value)
    if (n.path == path) return &n;
  return nullptr;
}

std::string describe(const DeviceNode& n) {
  std::string s = n.path + " " + n.type;
  if (n.major) s += " " + std::to_string(*n.major) + ":" + std::to_string(n.minor.value_or(-1));
  return s;
}

bool is_gpu_node(const std::string& path) {
  return path.size() > 11 && path.rfind("/dev/nvidia", 0) == 0 &&
         std::all_of(path.begin() + 11, path.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<int> uvm_major(const Facts& f) {
  if (f.kernel.char_majors.present()) {
    const auto it = f.kernel.char_majors.value.find("nvidia-uvm");
    if (it != f.kernel.char_majors.value.end()) return it->second;
  }
  return std::nullopt;
}

Finding check_nodes(const Facts& f) {
  const auto& nodes = f.device_nodes;
  if (!nodes.present())
    return finding("devices.nodes", Status::kUnknown, std::string("/dev ") + to_string(nodes.seen));
  // Inside a container sysfs lists every GPU of the host; the container's are those NVML sees.
  const std::size_t gpu_count = in_container(f) && nvml_works(f)
                                    ? static_cast<std::size_t>(*f.nvml.device_count)
                                    : gpus(f).size();
  if (nvidia_loaded(f) == Tri::kNo && nodes.value.empty())
    return finding("devices.nodes", Status::kSkip, "no driver, no /dev/nvidia* nodes");
  if (in_wsl(f) && nvidia_loaded(f) != Tri::kYes)
    return finding("devices.nodes", Status::kSkip,
                   "WSL2: the GPUs are reached through /dev/dxg, there are no /dev/nvidia* nodes");
  std::vector<std::string> ev, problems;
  int gpu_nodes = 0;
  for (const auto& n : nodes.value) {
    ev.push_back(describe(n));
    const bool control = n.path == "/dev/nvidiactl";
    if (!control && !is_gpu_node(n.path)) continue;
    gpu_nodes += control ? 0 : 1;
    if (n.type != "char") {
      problems.push_back(n.path + " is a " + n.type + ", not a character device");
    } else if (n.major && *n.major != kNvidiaMajor) {
      problems.push_back(n.path + " has major " + std::to_string(*n.major) + ", expected 195");
    }
  }
  if (node(f, "/dev/nvidiactl") == nullptr)
    problems.insert(problems.begin(), "/dev/nvidiactl missing");
  if (!problems.empty() && container_without_gpus(f))
    return finding("devices.nodes", Status::kFail,
                   join_some(problems) + ": the container runtime injected no GPU", ev,
                   container_gpus_fix());
  if (!problems.empty())
    return finding(
        "devices.nodes", Status::kFail, join_some(problems), ev,
        "create the nodes on the host (nvidia-modprobe -c0 -u, or nvidia-persistenced) and bind-mount "
        "every one into the container");
  // MIG capability nodes take their major from /proc/devices; a wrong one matters only for MIG.
  std::vector<std::string> caps_wrong;
  if (f.kernel.char_majors.present() && f.kernel.char_majors.value.count("nvidia-caps") != 0) {
    const int caps_major = f.kernel.char_majors.value.at("nvidia-caps");
    for (const auto& n : nodes.value)
      if (n.path.rfind("/dev/nvidia-caps/", 0) == 0 && n.major && *n.major != caps_major)
        caps_wrong.push_back(n.path + " major " + std::to_string(*n.major) +
                             ", /proc/devices says " + std::to_string(caps_major));
  }
  if (!caps_wrong.empty())
    return finding(
        "devices.nodes", Status::kWarn, join_some(caps_wrong), ev,
        "recreate /dev/nvidia-caps with nvidia-modprobe -f /proc/driver/nvidia-caps/mig-minors (needed for MIG only)");
  if (gpu_count > 0 && static_cast<std::size_t>(gpu_nodes) < gpu_count)
    return finding(
        "devices.nodes", Status::kWarn,
        "only " + std::to_string(gpu_nodes) + " /dev/nvidiaN node(s) for " +
            std::to_string(gpu_count) + " GPUs",
        ev,
        "map every /dev/nvidiaN (templates often map only nvidia0), unless fewer GPUs are meant for this host");
  return finding(
      "devices.nodes", Status::kPass,
      "/dev/nvidiactl and " + std::to_string(gpu_nodes) + " /dev/nvidiaN node(s), major 195", ev);
}

Finding check_uvm_major(const Facts& f) {
  if (uvm_loaded(f) == Tri::kNo)
    return finding("uvm.major", Status::kSkip, "nvidia_uvm not loaded");
  if (!f.device_nodes.present()) return finding("uvm.major", Status::kUnknown, "/dev not listed");
  const DeviceNode* uvm = node(f, "/dev/nvidia-uvm");
  const DeviceNode* tools = node(f, "/dev/nvidia-uvm-tools");
  auto expected = uvm_major(f);
  std::vector<std::string> ev;
  if (expected) ev.push_back("/proc/devices: nvidia-uvm " + std::to_string(*expected));
  const auto logged = log_signals(f).uvm_major_logged;
  if (!expected && logged) {
    expected = logged;
    ev.push_back("kernel log: UVM major " + std::to_string(*logged));
  }
  if (uvm != nullptr) ev.push_back(describe(*uvm));
  if (tools != nullptr) ev.push_back(describe(*tools));
  const std::string fix_major = expected ? std::to_string(*expected) : std::string("<major>");
  if (uvm == nullptr)
    return finding("uvm.major", Status::kFail,
                   "/dev/nvidia-uvm missing: cuInit fails (999 or 3) while nvidia-smi works", ev,
                   "mknod -m 666 /dev/nvidia-uvm c " + fix_major + " 0 (and -tools c " + fix_major +
                       " 1), or nvidia-modprobe -u -c0 on the host");
  if (uvm->type != "char")
    return finding(
        "uvm.major", Status::kFail,
        "/dev/nvidia-uvm is a " + uvm->type + ", not a character device", ev,
        "an empty file here usually comes from a bind mount with create=file of a node the host did not "
        "have yet: create it on the host (nvidia-modprobe -u -c0) before the container starts");
  if (!expected || !uvm->major)
    return finding("uvm.major", Status::kUnknown, "nvidia-uvm major not known from /proc/devices",
                   ev);
  std::vector<std::string> wrong;
  for (const DeviceNode* n : {uvm, tools})
    if (n != nullptr && n->major && *n->major != *expected)
      wrong.push_back(n->path + " is " + std::to_string(*n->major) + ":" +
                      std::to_string(n->minor.value_or(-1)));
  if (!wrong.empty())
    return finding("uvm.major", Status::kFail,
                   join(wrong) + " but the kernel registered nvidia-uvm at major " +
                       std::to_string(*expected) + " (a stale or hard-coded major)",
                   ev,
                   "recreate the nodes with major " + fix_major + " and allow `c " + fix_major +
                       ":* rwm` in the container config; never hard-code the UVM major");
  return finding("uvm.major", Status::kPass,
                 "/dev/nvidia-uvm major " + std::to_string(*expected) + " matches /proc/devices",
                 ev);
}

// The cgroup rules that let the nodes denied with EPERM open, with their real majors: the UVM major
// is assigned at load time and differs between hosts (508, 510, 511, ...), so a copied "c 510:*"
// line is a classic way to lose CUDA while nvidia-smi keeps working. Written in the container's
// own syntax where it is known.
std::string cgroup_allow_fix(const Facts& f) {
  const auto uvm = uvm_major(f);
  std::set<int> majors;
  if (f.device_nodes.present())
    for (const auto& n : f.device_nodes.value) {
      if (!n.open_rdwr || !n.open_rdwr->failed_with("EPERM") || !n.major) continue;
      // A UVM node may carry a stale major itself: the kernel's is the one to allow.
      const bool uvm_node = n.path.rfind("/dev/nvidia-uvm", 0) == 0;
      majors.insert(uvm_node && uvm ? *uvm : *n.major);
    }
  if (majors.empty()) majors = {kNvidiaMajor};
  const std::string container = environment(f).container;
  std::vector<std::string> rules, lines;
  for (int m : majors) {
    rules.push_back("c " + std::to_string(m) + ":* rwm");
    if (container == "lxc") lines.push_back("lxc.cgroup2.devices.allow: " + rules.back());
    if (container == "docker" || container == "podman")
      lines.push_back("--device-cgroup-rule='" + rules.back() + "'");
  }
  std::string fix = "allow " + join(rules);
  if (container == "lxc")
    fix += " (in the container's config on the host: " + join(lines, ", ") + ")";
  if (container == "docker" || container == "podman") fix += " (" + join(lines, " ") + ")";
  if (uvm)
    fix += "; nvidia-uvm is major " + std::to_string(*uvm) +
           " on this host: read it from /proc/devices, never copy it from another host";
  return fix;
}

Finding check_opens(const Facts& f) {
  if (!f.device_nodes.present())
    return finding("devices.open", Status::kUnknown, "/dev not listed");
  const NodeAccess a = node_access(f);
  if (a.attempted == 0) {
    if (f.device_nodes.value.empty())
      return finding("devices.open", Status::kSkip, "no /dev/nvidia* nodes to open");
    const bool any_char = std::any_of(f.device_nodes.value.begin(), f.device_nodes.value.end(),
                                      [](const DeviceNode& n) { return n.type == "char"; });
    return finding(
        "devices.open", Status::kUnknown,
        any_char
            ? "read-write opens not attempted (facts from a capture, not a live run)"
            : "read-write opens not attempted (nodes are not character devices under this root)");
  }
  std::vector<std::string> ev;
  for (const auto& n : f.device_nodes.value)
    if (n.open_rdwr) ev.push_back(n.path + ": open(O_RDWR) " + to_string(*n.open_rdwr));
  if (a.failures.empty())
    return finding("devices.open", Status::kPass,
                   std::to_string(a.opened) + " of " + std::to_string(a.attempted) +
                       " required nodes opened read-write",
                   ev);
  std::string hint;
  if (a.eperm) hint = "EPERM is the cgroup device filter: " + cgroup_allow_fix(f) + "; ";
  // Containers that had their GPUs and lost them: systemd rewrote the device rules on a
  // `systemctl daemon-reload`, dropping those the runtime added behind its back.
  if (a.eperm && in_container(f))
    hint +=
        "if the GPUs worked when the container started, a `systemctl daemon-reload` on the host (systemd cgroup "
        "driver) revoked them: restart the container, and prevent it with `nvidia-ctk system "
        "create-dev-char-symlinks --create-all` run from a udev rule, or Docker's cgroupfs driver "
        "(native.cgroupdriver=cgroupfs); ";
  if (a.eacces)
    hint +=
        "EACCES is file mode/ownership: NVreg_DeviceFileMode/UID/GID or the bind mount's permissions; ";
  hint += "ENXIO/ENODEV means a node with a stale major";
  return finding("devices.open", Status::kFail, "cannot open " + join_some(a.failures), ev, hint);
}

// v1 devices.list lines "c 195:* rwm"; "a *:* rwm" allows everything.
bool v1_allows(const std::string& list, int major) {
  std::istringstream in(list);
  for (std::string type, nums, access; in >> type >> nums >> access;) {
    if (type == "a") return true;
    if (type != "c") continue;
    const std::string maj = nums.substr(0, nums.find(':'));
    if ((maj == "*" || maj == std::to_string(major)) && access.find('r') != std::string::npos &&
        access.find('w') != std::string::npos)
      return true;
  }
  return false;
}

Finding check_cgroup(const Facts& f) {
  const auto& c = f.cgroup;
  std::vector<std::string> ev;
  if (c.v2_path) ev.push_back("cgroup v2 path: " + *c.v2_path);
  if (c.v1_devices_path) ev.push_back("cgroup v1 devices path: " + *c.v1_devices_path);
  if (!c.hierarchy) return finding("cgroup", Status::kUnknown, "cgroup hierarchy unknown", ev);
  const NodeAccess a = node_access(f);
  if (c.v1_devices_path) {
    if (!c.devices_list.present())
      return finding("cgroup", Status::kUnknown,
                     std::string("v1 devices.list ") + to_string(c.devices_list.seen) +
                         (c.devices_list_path ? " at " + *c.devices_list_path : std::string()),
                     ev);
    ev.push_back("devices.list" +
                 (c.devices_list_path ? " (" + *c.devices_list_path + ")" : std::string()) + ": " +
                 c.devices_list.value);
    std::vector<std::string> denied;
    std::vector<int> majors{kNvidiaMajor};
    if (const auto u = uvm_major(f)) majors.push_back(*u);
    for (int m : majors)
      if (!v1_allows(c.devices_list.value, m))
        denied.push_back("c " + std::to_string(m) + ":* rwm");
    if (!denied.empty())
      return finding(
          "cgroup", Status::kFail, "cgroup v1 devices.list does not allow " + join(denied), ev,
          "add lxc.cgroup.devices.allow (or the runtime's equivalent) for " + join(denied));
    return finding("cgroup", Status::kPass, "cgroup v1 devices.list allows the NVIDIA majors", ev);
  }
  if (f.device_nodes.present() && f.device_nodes.value.empty())
    return finding("cgroup", Status::kSkip,
                   "no /dev/nvidia* nodes for a device policy to allow or deny", ev);
  // v2 has no device interface files: an eBPF program decides at open() time, so the opens are the
  // test.
  if (a.attempted > 0 && a.failures.empty())
    return finding(
        "cgroup", Status::kPass,
        "cgroup v2 (device policy is an eBPF program): every required node opened, so it allows them",
        ev);
  if (a.eperm)
    return finding("cgroup", Status::kFail,
                   "cgroup v2 device program denies some nodes (EPERM on open)", ev,
                   cgroup_allow_fix(f));
  return finding(
      "cgroup", Status::kUnknown,
      "cgroup v2: device policy is an eBPF program and cannot be read; no successful open proves it",
      ev, "on the host: bpftool cgroup tree");
}

}  // namespace

void access(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_nodes(f));
  out.push_back(check_uvm_major(f));
  out.push_back(check_opens(f));
  out.push_back(check_cgroup(f));
}

}  // namespace p2p::doctor::rules
