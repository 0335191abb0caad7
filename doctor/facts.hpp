// Everything the doctor knows about a host, as plain data. The collectors fill it from /proc,
// /sys, /dev, /lib/firmware, the environment and the driver libraries; the rules read only this.
// A saved facts file (--save-facts) is this struct as versioned JSON, so a ticket can carry the
// host and the rules can be replayed anywhere, with no GPU.
//
// Conventions: std::optional is a value the source did not give (JSON null); Observed<T> is a
// file-like probe that can also be absent or unreadable (see observed.hpp).
//
// Version 1 grew fields after its first release (nvml.devices[].uuid, cgroup.devices_list_path,
// fabric_manager, peer_copy, kernel.release, kernel.module_files, nvml.devices[].health). A
// document written before them lacks those keys; the reader takes a missing key of these as "not
// known" (null, not_checked, not_run), never as a fault.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "doctor/health_facts.hpp"
#include "doctor/nccl_topo_file.hpp"
#include "doctor/observed.hpp"
#include "doctor/probe_states.hpp"
#include "doctor/vfio_facts.hpp"
#include "topology/environment.hpp"

namespace p2p::doctor {

// A bridge between a GPU and its root port, with its PCIe ACS control word.
struct Bridge {
  std::string bdf;            // "0000:40:01.1"
  Observed<int> acs_control;  // absent: no ACS capability; unreadable: config space cut short
};

// One NVIDIA function from /sys/bus/pci/devices: a GPU (class 0x03xxxx) or an NVSwitch (0x0680xx).
struct PciFunction {
  std::string bdf;                         // "0000:41:00.0", lower case
  int vendor_id = 0;                       // 0x10de
  int device_id = 0;                       // 0x2bb5
  int class_code = 0;                      // 0x030200
  std::optional<int> numa_node;            // -1 in sysfs means none: stored as null
  std::optional<double> current_link_gts;  // "32.0 GT/s PCIe" -> 32.0
  std::optional<double> max_link_gts;
  std::optional<int> current_link_width;
  std::optional<int> max_link_width;
  std::optional<std::uint64_t> aer_correctable;  // TOTAL_ERR_COR of aer_dev_correctable
  std::optional<std::uint64_t> aer_nonfatal;     // TOTAL_ERR_NONFATAL
  std::optional<std::uint64_t> aer_fatal;        // TOTAL_ERR_FATAL
  Observed<std::string> driver;  // bound driver ("nvidia", "vfio-pci"); absent: none bound
  std::optional<std::uint64_t> bar1_bytes;      // size of resource 1 (the framebuffer aperture)
  std::optional<std::string> iommu_group_type;  // "identity", "DMA", "DMA-FQ"
  std::vector<Bridge> upstream;                 // root port first, nearest bridge last
};

// /proc/driver/nvidia/gpus/<bdf>/information.
struct GpuInformation {
  std::string bdf;
  std::string model;
  std::optional<int> device_minor;          // N of /dev/nvidiaN
  std::optional<std::string> gsp_firmware;  // "580.159.04" when GSP runs, "N/A" when it does not
};

// One /dev/nvidia* node.
struct DeviceNode {
  std::string path;  // "/dev/nvidia-uvm"; also /dev/dxg, WSL2's GPU paravirtualisation node
  std::string type;  // char | block | regular | directory | other
  std::optional<int> major;
  std::optional<int> minor;
  std::optional<OpenResult> open_rdwr;  // null when not attempted
};

struct KernelFacts {
  Observed<std::vector<std::string>> modules;           // names in /proc/modules
  Observed<bool> sys_module_nvidia;                     // /sys/module/nvidia exists (built-in too)
  Observed<std::string> nvidia_version_text;            // /proc/driver/nvidia/version, first line
  Observed<std::string> module_version;                 // /sys/module/nvidia/version
  Observed<std::map<std::string, std::string>> params;  // /proc/driver/nvidia/params
  Observed<std::string> uvm_disable_hmm;                // "Y" / "N"
  Observed<std::map<std::string, int>> char_majors;     // /proc/devices, character section
  Observed<std::string> cmdline;                        // /proc/cmdline
  // /proc/sys/kernel/osrelease ("6.8.0-41-generic", "5.15.133.1-microsoft-standard-WSL2"). Added to
  // version 1 later: not_checked in older documents.
  Observed<std::string> release;
  // The NVIDIA modules (nvidia.ko, nvidia-uvm.ko, ...) that /lib/modules/<release>/modules.dep
  // lists: what modprobe can load for the running kernel. Empty after a kernel upgrade whose DKMS
  // build failed. Added later: not_checked in older documents and where the release is unknown.
  Observed<std::vector<std::string>> module_files;
  Observed<std::vector<std::string>> log_lines;  // matching kernel log lines, bounded
  std::string log_source;                        // "/dev/kmsg", "syslog(2)", a file, or ""
};

struct FirmwareFacts {
  Observed<std::vector<std::string>> versions;  // directories under /lib/firmware/nvidia
  Observed<std::vector<std::string>>
      gsp_files;  // gsp_*.bin in /lib/firmware/nvidia/<module version>
};

struct CgroupFacts {
  std::optional<std::string> hierarchy;        // "v2", "v1", "hybrid"
  std::optional<std::string> v2_path;          // the "0::" line of /proc/self/cgroup
  std::optional<std::string> v1_devices_path;  // the "devices" controller line
  Observed<std::string> devices_list;          // v1 devices.list of that cgroup
  // The file devices_list was read from. Inside a container without a cgroup namespace the path
  // in /proc/self/cgroup is the host's ("/docker/<id>") while the container's own cgroup is
  // mounted at /sys/fs/cgroup/devices; /proc/self/mountinfo says which. Null in older documents.
  std::optional<std::string> devices_list_path;
};

struct IommuFacts {
  Observed<std::vector<std::string>> units;          // /sys/class/iommu entries
  Observed<std::map<std::string, int>> group_types;  // type -> number of groups
};

struct CudaDevice {
  int ordinal = 0;
  std::string name;
  std::string pci_bus_id;  // as CUDA prints it ("0000:41:00.0")
  std::optional<int> cc_major;
  std::optional<int> cc_minor;
  std::optional<int> context_result;  // cuDevicePrimaryCtxRetain
  std::optional<int> alloc_result;    // cuMemAlloc of 1 MiB
};

// The CUDA driver API probe, run in a child process.
struct CudaProbe {
  ProbeStatus status = ProbeStatus::kNotRun;
  std::string detail;                       // dlopen error, signal, or why it did not run
  std::optional<std::string> library_path;  // real path of libcuda.so.1
  std::optional<int> driver_version;        // cuDriverGetVersion: 1000*major + 10*minor
  std::optional<int> init_result;           // cuInit(0)
  std::optional<int> device_count;
  std::vector<CudaDevice> devices;
};

struct NvmlDevice {
  int index = 0;
  std::string pci_bus_id;  // normalised to "0000:41:00.0"
  std::string name;
  std::optional<std::string>
      uuid;  // "GPU-5a3c…": what CUDA_VISIBLE_DEVICES may name; null in older documents
  std::optional<int> architecture;  // nvmlDeviceArchitecture_t (10 = Blackwell)
  std::optional<int>
      virtualization_mode;  // 0 none, 1 pass-through, 2 vGPU, 3 host vGPU, 4 host vSGA
  std::optional<int> pcie_gen_current;
  std::optional<int> pcie_gen_max;
  std::optional<int> pcie_width_current;
  std::optional<int> pcie_width_max;
  std::optional<std::uint64_t> bar1_total_bytes;
  std::optional<int> persistence_mode;  // 0 off, 1 on
  std::optional<int> compute_mode;      // 0 default, 2 prohibited, 3 exclusive process
  std::optional<bool> gsp_firmware_enabled;
  std::optional<std::string> gsp_firmware_version;
  std::optional<int> fabric_state;   // 0 n/a, 1 not started, 2 in progress, 3 completed
  std::optional<int> fabric_status;  // nvmlReturn_t, meaningful when completed
  // ECC, retired pages, remapped rows, recovery action, processes, throttling, MIG, vGPU licence
  // (health_facts.hpp). Added to version 1 later: null in older documents (not collected).
  std::optional<NvmlHealth> health;
};

struct NvmlPair {
  int a = 0;
  int b = 0;
  std::optional<int> read;  // nvmlGpuP2PStatus_t
  std::optional<int> write;
  std::optional<int> nvlink;
  std::optional<int> common_ancestor;  // nvmlGpuTopologyLevel_t (30 = PHB)
};

// The NVML probe, run in a child process.
struct NvmlProbe {
  ProbeStatus status = ProbeStatus::kNotRun;
  std::string detail;
  std::optional<std::string> library_path;
  std::optional<int> init_result;             // nvmlInit_v2
  std::optional<std::string> driver_version;  // nvmlSystemGetDriverVersion
  std::optional<int> cuda_driver_version;     // nvmlSystemGetCudaDriverVersion_v2
  std::optional<int> device_count;
  std::vector<NvmlDevice> devices;
  std::vector<NvmlPair> pairs;  // a < b
};

// Fabric Manager's own log (LOG_FILE_NAME in fabricmanager.cfg, /var/log/fabricmanager.log by
// default): the lines that name versions or errors, the latest last. It is where a Fabric Manager
// of another release than the driver says so and exits. Not checked in older documents.
struct FabricManagerFacts {
  std::string log_path;  // the file read, "" when not looked at
  Observed<std::vector<std::string>> log_lines;
};

// One ordered pair of the peer-copy check: `src` writes into memory owned by `dst`, and `dst`
// checks what arrived. src == dst on a host with one GPU (the GPU against itself).
struct PeerCopyPair {
  int src = 0;  // CUDA ordinals
  int dst = 0;
  std::string src_bus_id;  // "0000:41:00.0"
  std::string dst_bus_id;
  std::optional<bool> can_access_peer;  // cuDeviceCanAccessPeer(src, dst); null for src == dst
  // Each of the two writes: ok, corrupt, error (see detail) or not_run (see detail).
  CopyResult copy_result = CopyResult::kNotRun;  // cuMemcpyPeer (a copy engine)
  std::optional<std::uint64_t> copy_mismatched_words;
  CopyResult store_result = CopyResult::kNotRun;  // a kernel on src storing into dst's memory
  std::optional<std::uint64_t> store_mismatched_words;
  std::uint64_t words = 0;  // 32-bit words per buffer
  std::string detail;

  bool either_write_is(CopyResult r) const { return copy_result == r || store_result == r; }
  // A write arrived corrupt or hit an error.
  bool went_wrong() const {
    return either_write_is(CopyResult::kCorrupt) || either_write_is(CopyResult::kError);
  }
};

// The peer-copy probe, run in a child process like the CUDA probe.
struct PeerCopyProbe {
  ProbeStatus status = ProbeStatus::kNotRun;
  std::string detail;
  PeerCopyMode mode = PeerCopyMode::kNone;
  std::vector<PeerCopyPair> pairs;
};

struct Facts {
  static constexpr int kVersion = 1;
  std::string source;  // "live", "root DIR", or what a fixture describes
  std::string note;    // free text kept with the facts (provenance of a capture)
  std::optional<int> built_cuda_runtime_version;  // CUDART_VERSION p2pcheck was built with
  topo::EnvironmentFacts environment;
  KernelFacts kernel;
  FirmwareFacts firmware;
  Observed<std::vector<PciFunction>> pci;  // NVIDIA GPUs and NVSwitches
  Observed<std::vector<GpuInformation>> gpu_information;
  Observed<std::vector<DeviceNode>> device_nodes;
  CgroupFacts cgroup;
  IommuFacts iommu;
  Observed<std::vector<std::string>>
      daemons;  // nv-fabricmanager / nvidia-persistenced / nvidia-gridd seen in /proc
  std::map<std::string, std::string> env;  // NCCL_*, CUDA_*, LD_LIBRARY_PATH
  CudaProbe cuda;
  NvmlProbe nvml;
  FabricManagerFacts fabric_manager;
  PeerCopyProbe peer_copy;
  VfioFacts vfio;  // GPUDirect cliques (guest) and IOMMU groups (host): doctor/vfio_facts.hpp
  NcclTopoFileFacts nccl_topo_file;  // NCCL_TOPO_FILE and its GPUs: doctor/nccl_topo_file.hpp
};

// Versioned JSON. facts_from_json is strict: every key must be there (null where unknown), no
// unknown keys, and another schema or version is refused. Errors are p2p::InputError whose
// message names the key path ("cuda.devices: key 'name' not found").
nlohmann::json facts_to_json(const Facts& f);
Facts facts_from_json(const nlohmann::json& j);

// Reads a saved facts file; InputError "PATH: ..." on a missing, malformed or foreign file.
Facts load_facts_file(const std::string& path);

}  // namespace p2p::doctor
