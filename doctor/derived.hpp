// Pure readings of the facts that several rules and the verdict share: which GPUs there are
// (matched across sysfs, /proc/driver/nvidia, NVML and CUDA by bus id), the module flavour
// and version, what the kernel log says, whether the GSP firmware is where the module looks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/knowledge/gpu_generation.hpp"
#include "topology/snapshot.hpp"

namespace p2p::doctor {

// One GPU as every source tells it. Pointers are null where a source does not list it.
struct GpuView {
  std::string bdf;  // "0000:41:00.0"
  const PciFunction* pci = nullptr;
  const GpuInformation* info = nullptr;
  const NvmlDevice* nvml = nullptr;
  const CudaDevice* cuda = nullptr;
  GpuGeneration generation;
  std::string name;  // best model name known
};

// "00000000:41:00.0" / "0000:41:00.0" / "41:00.0" -> "0000:41:00.0", lower case.
std::string normalize_bdf(const std::string& bus_id);

std::vector<GpuView> gpus(const Facts& f);  // sorted by bdf
std::vector<const PciFunction*> nvswitches(const Facts& f);

enum class Tri { kYes, kNo, kUnknown };

// nvidia loaded: /proc/modules, /sys/module/nvidia or /proc/driver/nvidia/version.
Tri nvidia_loaded(const Facts& f);
Tri uvm_loaded(const Facts& f);
// Neither module nor libraries: the "no NVIDIA driver" case.
bool no_driver(const Facts& f);

enum class Flavour { kUnknown, kOpen, kProprietary };
Flavour module_flavour(const Facts& f);
const char* to_string(Flavour fl);
std::optional<std::string> module_version(const Facts& f);

topo::Environment environment(const Facts& f);
bool in_container(const Facts& f);
bool in_vm_passthrough(const Facts& f);
// WSL2: the Windows driver serves the GPUs through /dev/dxg; there is no Linux nvidia module, no
// /dev/nvidia* node and no peer-to-peer. Told by the kernel release
// ("...-microsoft-standard-WSL2"), /dev/dxg, or libcuda loaded from /usr/lib/wsl.
bool in_wsl(const Facts& f);
// A guest whose GPUs are NVIDIA vGPUs (NVML virtualization mode 2). P2P between vGPUs exists only
// over NVLink, between time-sliced vGPUs that own a whole GPU's framebuffer; never over PCIe.
bool in_vgpu_guest(const Facts& f);
// A Docker/Podman/Kubernetes container started without GPUs: the host's module is visible through
// /proc, but the runtime injected no /dev/nvidia* node and no driver library (no --gpus).
bool container_without_gpus(const Facts& f);
// The driver's libraries are installed, its module is not loaded and modules.dep of the running
// kernel lists none: after a kernel upgrade whose DKMS build failed (or a driver older than the
// kernel), modprobe has nothing to load.
bool module_not_built(const Facts& f);
// The fix for module_not_built, naming the running kernel.
std::string module_not_built_fix(const Facts& f);
// GeForce/TITAN cards of Turing or newer: NVIDIA's driver offers them no P2P over PCIe (only over
// an NVLink bridge, where the card has one), whatever the platform.
bool geforce_without_pcie_p2p(const GpuView& g);

// cuInit's result, when the probe completed.
std::optional<int> cuinit_result(const Facts& f);
bool cuda_works(const Facts& f);  // cuInit 0 and at least one device
bool nvml_works(const Facts& f);  // nvmlInit 0 and at least one device

// "libcuda.so.590.48.01" -> "590.48.01"; nullopt without a version suffix.
std::optional<std::string> library_version(const std::optional<std::string>& path);
bool is_stub_path(const std::optional<std::string>& path);
bool is_compat_path(const std::optional<std::string>& path);

// Kernel log lines by what they show. Empty when the log was not read.
struct LogSignals {
  std::vector<std::string>
      firmware_load;                 // "Direct firmware load ... gsp_*.bin failed", GSP init errors
  std::vector<std::string> rm_init;  // "RmInitAdapter failed", "rm_init_adapter failed"
  std::vector<std::string> wpr2;     // "WPR2 already up": a GPU left dirty (VFIO guest, crash)
  std::vector<std::string> hmm;      // "devmem_alloc_pagemap ... request_free_mem_region() err -34"
  std::vector<std::string> api_mismatch;   // "NVRM: API mismatch: the client has the version ..."
  std::vector<std::string> open_required;  // "... requires use of the NVIDIA open kernel modules"
  std::optional<int> uvm_major_logged;     // "Loaded the UVM driver, major device number N"
  std::vector<std::string> nouveau;  // lines of the nouveau driver ("nouveau 0000:01:00.0: ...")
  std::vector<std::string>
      not_probed;  // "The NVIDIA probe routine was not called ...": another driver owns the GPU
  std::vector<std::string> bar_space;     // the PCI core or NVRM: a BAR without address space ("no
                                          // space for", "BAR1 is 0M")
  std::vector<std::string> iommu_faults;  // "AMD-Vi: Event logged [IO_PAGE_FAULT ...", "DMAR: [DMA
                                          // Write ...] Request device ..."
  // "... has fallen off the bus" and Xid 79: the GPU stopped answering on PCIe. The driver prints
  // the first form as several lines; the line naming the GPU is joined to it.
  std::vector<std::string> gpu_lost;
  std::vector<std::string> gsp_timeout;  // "Timeout waiting for RPC from GSP!", Xid 119/120
  std::vector<std::string> suspend;  // "PM: suspend exit", "PM: hibernation: ...": a sleep cycle
  // The kernel refused to load a module for its signature (Secure Boot / lockdown): "Loading of
  // module with unavailable key is rejected", "unsigned module loading is restricted".
  std::vector<std::string> module_rejected;
  std::vector<std::string> secure_boot;  // "secureboot: Secure boot enabled"
};
LogSignals log_signals(const Facts& f);

// The Xid number of an "NVRM: Xid (PCI:0000:61:00): 119, ..." line; nullopt on other lines.
std::optional<int> xid_code(const std::string& line);

// PCI addresses a kernel log line names, normalised ("0000:41:00.0"): the device prefix
// ("nvidia 0000:41:00.0: ..."), "(PCI:0000:41:00.0)", "device=41:00.0", "Request device [41:00.0]",
// "[0x41:0x00.0]" and an Xid's "(PCI:0000:41:00)", which leaves out the function (0). A short form
// without a domain is taken as domain 0000.
std::vector<std::string> bdfs_in_line(const std::string& line);
// The GPUs (bus ids, sorted) that these log lines name.
std::vector<std::string> gpus_named(const Facts& f, const std::vector<std::string>& lines);

// Whether DMA from the GPUs is translated by an IOMMU, and how we know.
struct IommuState {
  enum class Mode { kUnknown, kOff, kPassthrough, kTranslated } mode = Mode::kUnknown;
  std::vector<std::string> flags;  // iommu-related words of the kernel command line
  std::vector<std::string>
      translating;  // "0000:41:00.0 DMA-FQ", or "61 group(s) DMA-FQ" without per-GPU types
};
IommuState iommu_state(const Facts& f);
const char* to_string(IommuState::Mode m);  // "unknown", "off", "passthrough", "translated"

// CUDA_VISIBLE_DEVICES, and NVIDIA_VISIBLE_DEVICES inside a container, against the GPUs that are
// really here (NVML's count and UUIDs). CUDA reads its list left to right and stops at the first
// entry that names no GPU, so that entry hides itself and everything after it.
struct VisibleDevices {
  std::string variable;  // "CUDA_VISIBLE_DEVICES"
  std::string value;
  bool hides_all = false;            // "", "-1", "none", "void", "NoDevFiles"
  std::vector<std::string> missing;  // entries naming a GPU that is not here ("3", "GPU-8a1b…")
  std::vector<std::string> lost;  // valid entries after the first missing one (CUDA ignores them)
  int usable = 0;                 // entries CUDA will use
  int entries = 0;
  int gpus_here = -1;  // what the entries were compared with (-1: unknown)
  // Entries naming MIG instances ("MIG-<uuid>"): NVML's GPU list cannot check them, and CUDA has
  // no peer-to-peer between MIG instances.
  std::vector<std::string> mig;
};
std::vector<VisibleDevices> visible_devices(const Facts& f);  // only the variables that are set

// The GPUs CUDA can use against the GPUs this host (or container) has: "CUDA works on 2 of 4".
// `expected` is what NVML lists inside a container (sysfs shows the host's GPUs there), the PCI
// functions elsewhere; `unusable` are the bus ids without a working CUDA device.
struct GpuUse {
  int expected = 0;
  int working = 0;
  std::vector<std::string> unusable;
  bool masked = false;  // CUDA_VISIBLE_DEVICES selects a subset on purpose: no count to compare
};
GpuUse gpu_use(const Facts& f);

// GPUs whose BAR1 is the legacy 256 MiB aperture. Ampere and newer can map all their memory once
// the BIOS enables Above 4G Decoding and Resizable BAR; older GPUs (GeForce up to Turing, T4) have
// no larger BAR1 to enable. A GPU whose adapter initialisation failed with such a BAR (recent
// GeForce cards need the large one) is listed in init_failed as well.
constexpr std::uint64_t kSmallBar1Bytes = 256ull * 1024 * 1024;
struct SmallBar1 {
  std::vector<std::string> fixable;     // Ampere or newer (or generation unknown)
  std::vector<std::string> fixed_size;  // no Resizable BAR on this generation
  std::vector<std::string> init_failed;
  std::vector<std::string> sizes;  // "0000:01:00.0 BAR1 256 MiB" for every GPU of known size
  int known = 0;
};
SmallBar1 small_bar1(const Facts& f);

// Which driver holds each GPU. A GPU held by nouveau, vfio-pci or any other module cannot be
// driven by nvidia however well the NVIDIA driver is installed.
struct Binding {
  std::vector<std::string> nvidia;
  std::map<std::string, std::vector<std::string>>
      other;  // driver -> bus ids ("nouveau", "vfio-pci")
  std::vector<std::string> unbound;
  int known = 0;
  bool nouveau_loaded = false;    // listed in /proc/modules
  bool nvidia_userspace = false;  // libcuda.so.1 or libnvidia-ml.so.1 found
};
Binding binding(const Facts& f);
// The fix for GPUs held by `driver` ("nouveau", "vfio-pci", ...).
std::string unbind_fix(const std::string& driver, const std::vector<std::string>& bdfs);

// Fabric Manager's version where its log names it ("... driver interface version X don't match
// ..."), and whether it reported a version mismatch with the driver.
struct FabricManagerLog {
  std::optional<std::string> version;
  std::optional<std::string> driver_version_seen;  // the driver version it compared itself with
  std::vector<std::string> mismatch;               // the lines that say so
};
FabricManagerLog fabric_manager_log(const Facts& f);

// GSP state per GPU, from /proc/driver/nvidia/gpus/*/information or NVML.
struct GspRun {
  int running = 0;
  int off = 0;
  int off_required = 0;  // off on a GPU that cannot work without GSP (open module, or Blackwell)
  int unknown = 0;
  std::vector<std::string> versions;  // distinct running versions
};
GspRun gsp_run(const Facts& f);
// GSP reported running on every GPU: firmware and adapter init demonstrably worked.
bool gsp_running_everywhere(const Facts& f);

// Whether the GSP firmware the GPUs need is where the module looks for it.
struct FirmwareCheck {
  enum class State {
    kNotNeeded,  // no GPU that uses GSP, or no GPU at all
    kPresent,    // /lib/firmware/nvidia/<ver>/<file> exists
    kElsewhere,  // not at the standard path, but GSP runs: loaded from firmware_class.path or built
                 // in
    kMissing,    // the directory or the file is missing on this host
    kOptional,   // missing, but the proprietary module runs these (pre-Blackwell) GPUs without GSP
    kNotVisible,  // in a container: the host's /lib/firmware is what counts, and we cannot see it
    kUnknown,     // module version or listing unknown
  } state = State::kUnknown;
  std::string directory;            // "/lib/firmware/nvidia/590.48.01"
  std::vector<std::string> needed;  // {"gsp_ga10x.bin"}
  std::vector<std::string> missing;
  std::vector<std::string> other_versions;
};
FirmwareCheck firmware_check(const Facts& f);

// Required nodes (/dev/nvidiactl, /dev/nvidiaN, /dev/nvidia-uvm[-tools]) and how they opened.
struct NodeAccess {
  int attempted = 0;
  int opened = 0;
  std::vector<std::string> failures;  // "/dev/nvidia-uvm: EPERM"
  bool eperm = false;                 // a cgroup device filter said no
  bool eacces = false;                // file mode or ownership said no
};
NodeAccess node_access(const Facts& f);

// Value of one /proc/driver/nvidia/params entry, as a number where it is one.
std::optional<long long> param_number(const Facts& f, const std::string& name);

// Entries of the RegistryDwords parameter ("ForceP2P=0x11;RMPcieP2PType=2"), name -> value text.
std::vector<std::pair<std::string, std::string>> registry_dwords(const Facts& f);

}  // namespace p2p::doctor
