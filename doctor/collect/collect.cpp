// Puts the collectors together: files first (they never touch the GPU), then, on the live host,
// the device opens, NVML and CUDA, each in its own child process.
#include "doctor/collect/collect.hpp"

#include <dirent.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor {

namespace {

void check_root(const std::string& root) {
  DIR* d = ::opendir(root.c_str());
  if (d == nullptr) {
    const int err = errno;
    throw InputError(root + ": cannot read the root directory: " + std::strerror(err));
  }
  ::closedir(d);
}

bool is_host_root(const std::string& root) {
  std::error_code ec;
  const auto real = std::filesystem::canonical(root, ec);
  return !ec && real == "/";
}

void mark_not_run(Facts& f, const std::string& why) {
  f.cuda.status = ProbeStatus::kNotRun;
  f.cuda.detail = why;
  f.nvml.status = ProbeStatus::kNotRun;
  f.nvml.detail = why;
  f.peer_copy.status = ProbeStatus::kNotRun;
  f.peer_copy.detail = why;
}

// The facts that files under `root` give: they never touch the GPU, so they are read everywhere.
void read_files(Facts& f, const std::string& root, bool live) {
  f.environment = topo::read_environment_facts(root, live);
  // PCI first: the kernel log keeps the lines that name a GPU or a bridge above one.
  f.pci = collect_pci(root);
  std::vector<std::string> bdfs;
  if (f.pci.present())
    for (const auto& p : f.pci.value) {
      bdfs.push_back(p.bdf);
      for (const auto& b : p.upstream) bdfs.push_back(b.bdf);
    }
  f.kernel = collect_kernel(root, bdfs);
  f.firmware = collect_firmware(root, module_version(f));
  f.gpu_information = collect_gpu_information(root);
  f.device_nodes = collect_device_nodes(root);
  f.cgroup = collect_cgroup(root);
  f.iommu = collect_iommu(root);
  f.vfio = collect_vfio(root, f.pci);
  f.daemons = collect_daemons(root);
  f.env = collect_env(root);
  f.nccl_topo_file = collect_nccl_topo_file(root, f.env);
  f.fabric_manager = collect_fabric_manager(root);
}

// Opens the device nodes found, in a child, and records how each open went. Only real character
// devices are opened: under a fixture root they are plain files.
void open_device_nodes(Facts& f, const CollectOptions& o, bool live) {
  std::vector<std::string> nodes;
  if (f.device_nodes.present())
    for (const auto& n : f.device_nodes.value)
      if (n.type == "char") nodes.push_back((live ? std::string() : o.root) + n.path);
  if (nodes.empty()) return;
  const auto opened = probe_opens(nodes, o.probe_timeout_ms);
  for (auto& n : f.device_nodes.value) {
    const auto it = opened.find((live ? std::string() : o.root) + n.path);
    if (it != opened.end()) n.open_rdwr = it->second;
  }
}

// NVML, CUDA and, where CUDA works, the peer copy: each in its own child, on the live host only.
void probe_libraries(Facts& f, const CollectOptions& o) {
  f.nvml = probe_nvml(o.probe_timeout_ms);
  f.cuda = probe_cuda(o.probe_timeout_ms);
  if (cuda_works(f)) {
    f.peer_copy = probe_peer_copy(o.probe_timeout_ms, o.peer_copy_logical_gpus);
  } else {
    f.peer_copy.detail = "CUDA does not work here";
  }
  for (const auto& d : f.nvml.devices)
    if (d.virtualization_mode && *d.virtualization_mode != 0 &&
        f.environment.nvml_virtualization_mode.empty())
      f.environment.nvml_virtualization_mode = virtualization_mode_name(*d.virtualization_mode);
}

}  // namespace

Facts collect_facts(const CollectOptions& o) {
  check_root(o.root);
  const bool live = is_host_root(o.root);
  const std::string root = live ? "/" : o.root;
  Facts f;
  f.source = live ? "live" : "root " + o.root;
#ifdef P2P_CUDA_RUNTIME_VERSION
  f.built_cuda_runtime_version = P2P_CUDA_RUNTIME_VERSION;
#endif
  read_files(f, root, live);
  if (!o.live_probes) {
    mark_not_run(f, "live probes turned off");
    return f;
  }
  open_device_nodes(f, o, live);
  if (!live) {
    mark_not_run(f, "facts read under --root " + o.root);
    return f;
  }
  probe_libraries(f, o);
  return f;
}

}  // namespace p2p::doctor
