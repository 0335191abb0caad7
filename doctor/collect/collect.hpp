// The collectors: a thin layer that reads files under a root directory ("/" for this host, a
// fixture tree in tests) and, on the live host only, probes the driver libraries in child
// processes. No judgement happens here; every unreadable value stays unknown.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"

namespace p2p::doctor {

struct CollectOptions {
  std::string root = "/";
  // Per child probe (device opens, NVML, CUDA). Generous: without persistence mode the first open
  // of each GPU boots its GSP, which on an 8-GPU host takes seconds per GPU.
  int probe_timeout_ms = 45000;
  bool live_probes = true;  // honoured only when root is "/"
  // The peer-copy check between this many logical GPUs placed round-robin on the real ones
  // (0: the real GPUs). Lets every pair path run on a host with fewer GPUs.
  int peer_copy_logical_gpus = 0;
};

// InputError "DIR: ..." when the root is not a readable directory.
Facts collect_facts(const CollectOptions& options);

// The parts, each reading host paths under `root` (exposed for the fixture-tree tests).
// `gpu_bdfs`: the GPUs and the bridges above them; kernel log lines that name one are kept.
// The NVIDIA modules a modules.dep lists ("updates/dkms/nvidia.ko.zst"), in its order; nvidiafb,
// the kernel's own framebuffer driver, is not one of them.
std::vector<std::string> nvidia_module_files(const std::string& modules_dep);

KernelFacts collect_kernel(const std::string& root, const std::vector<std::string>& gpu_bdfs = {});
FirmwareFacts collect_firmware(const std::string& root,
                               const std::optional<std::string>& module_version);
CgroupFacts collect_cgroup(const std::string& root);
IommuFacts collect_iommu(const std::string& root);
Observed<std::vector<std::string>> collect_daemons(const std::string& root);
std::map<std::string, std::string> collect_env(const std::string& root);
// NCCL_TOPO_FILE from the environment, else /etc/nccl.conf, and the GPUs the file names.
NcclTopoFileFacts collect_nccl_topo_file(const std::string& root,
                                         const std::map<std::string, std::string>& env);
// Fabric Manager's log (/var/log/fabricmanager.log): its lines about versions and errors.
FabricManagerFacts collect_fabric_manager(const std::string& root);
Observed<std::vector<PciFunction>> collect_pci(const std::string& root);
// Each GPU of `pci`: its config space read for the GPUDirect clique capability, its IOMMU group.
VfioFacts collect_vfio(const std::string& root, const Observed<std::vector<PciFunction>>& pci);
Observed<std::vector<GpuInformation>> collect_gpu_information(const std::string& root);
Observed<std::vector<DeviceNode>> collect_device_nodes(
    const std::string& root);  // stat() only, no opens

// Matching kernel log lines, bounded: the NVIDIA driver's, those of the subsystems that decide a
// GPU's fate (nouveau, vfio-pci, the IOMMU, the PCI core's BAR assignment) and any line naming one
// of `gpu_bdfs`. On the live host from /dev/kmsg (non-blocking, stops at EAGAIN) or syslog(2);
// under a fixture root from the file <root>/dev/kmsg. `source` says which.
Observed<std::vector<std::string>> collect_kernel_log(
    const std::string& root, std::string& source, const std::vector<std::string>& gpu_bdfs = {});

// Pure parsers, exposed for tests.
// The ACS control word from a PCI config space image: absent without an ACS capability,
// unreadable when the image stops at 256 bytes (no extended space visible).
Observed<int> acs_control_from_config(const std::string& config);
// True for kernel log messages the doctor keeps (see collect_kernel_log).
bool is_relevant_log_line(const std::string& message,
                          const std::vector<std::string>& gpu_bdfs = {});
// The cgroup v1 devices.list to read for a cgroup path from /proc/self/cgroup, given
// /proc/self/mountinfo: the devices hierarchy's mount point plus the path below the mount's root.
// Inside a container without a cgroup namespace the path names the host's cgroup ("/docker/<id>")
// and the container's own is mounted at the mount point. nullopt without a devices mount.
std::optional<std::string> v1_devices_list_path(const std::string& mountinfo,
                                                const std::string& cgroup_path);
// "6,1234,5678,-;message" (a /dev/kmsg record) or "<6>[ 1.2] message" (syslog) -> "message".
std::string log_message(const std::string& record);

}  // namespace p2p::doctor
