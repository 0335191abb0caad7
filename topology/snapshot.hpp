// The topology data model: plain data produced once by discovery (live hwloc, an lstopo XML
// capture, or a saved snapshot) and read by every pure function after it (classifier, gate,
// diff, bench link ceilings). Nothing here calls a driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/gpudirect_capability.hpp"

namespace p2p::topo {

// The `nvidia-smi topo -m` legend, best to worst. kNvLink carries its link count separately.
enum class PathClass { kSelf, kNvLink, kPix, kPxb, kPhb, kNode, kSys };

// "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS".
std::string to_string(PathClass c);
// Accepts the strings above (and "NV<n>"); nullopt otherwise.
std::optional<PathClass> path_class_from_string(const std::string& s);

// One PCIe link as far as the source tells: generation 1..6 and lane count, and the
// per-direction bandwidth hwloc computes from them (GB/s, 1e9 B/s). An hwloc XML carries only
// that bandwidth, from which gen and width follow only where one combination fits.
struct PcieLink {
  std::optional<int> gen;
  std::optional<int> width;
  std::optional<double> gbps;
};

struct Gpu {
  std::string pci_bus_id;  // "0000:00:06.0", lower case; identity across CUDA_VISIBLE_DEVICES
  std::uint16_t vendor_id = 0x10de;
  std::uint16_t device_id = 0;
  std::string name;         // "NVIDIA H200" where known, else ""
  int numa_node = -1;       // -1 unknown
  std::string cpuset;       // local CPUs as a list, "0-15"
  PcieLink link_current;    // as negotiated when the snapshot was taken (idle GPUs downshift)
  PcieLink link_max;        // the best this slot can train: min(GPU max, upstream port max)
  std::string host_bridge;  // root complex identity "0000:[40-5f]" (domain:[bus range]); "" unknown
  std::vector<std::string>
      pcie_path;  // bus ids of the PCI bridges from the host bridge down (root port first)
};

// Where the snapshot was taken: decides how a PHB-everywhere matrix should be read.
struct Environment {
  std::string kind = "unknown";       // bare-metal | vm | container | unknown
  std::string hypervisor;             // "KVM", "Firecracker", ... ("" if none or unknown)
  std::string container;              // lxc | docker | podman | systemd-nspawn | ""
  std::string virtualization_mode;    // NVML mode, "Pass-Through" where known
  std::vector<std::string> evidence;  // what the decision was based on
};

// A network adapter a capture names beside the GPUs (`nvidia-smi topo -m` NIC rows and columns).
// Kept apart from the GPUs: it is never counted as one, never paired with one in a diff.
struct Nic {
  std::string name;    // "NIC0", or the device name older captures print ("mlx5_0")
  std::string device;  // from the capture's NIC legend ("mlx5_0"); "" where cut off
  std::vector<std::string>
      gpu_paths;  // the class of the path to each GPU, as printed ("PIX", "SYS")
};

// Per ordered GPU pair, what `nvidia-smi topo -p2p r|w|n|a|p` said: "OK", "CNS", "GNS", "TNS",
// "NS", "DR", "U" ("X" on the diagonal). Empty when nobody captured it.
struct P2pStatus {
  std::string capability;  // read | write | nvlink | atomics | prop; several joined by '+'
                           // ("read+write") for one matrix printed for `-p2p rw`
  std::vector<std::vector<std::string>> cells;  // [i][j]
};

// The most GPUs a topology p2pcheck reads may hold (docs/inputs-and-outputs.md, "Limits"): every
// pair is a cell of several matrices, so a snapshot of 1,024 GPUs is about 27 MB of JSON and 300 MB
// once read.
constexpr std::size_t kMaxTopologyGpus = 1024;
// The largest snapshot text read: a topology of kMaxTopologyGpus GPUs, with room to spare.
constexpr std::size_t kMaxSnapshotBytes = std::size_t{64} << 20;

struct TopologySnapshot {
  static constexpr int kSchemaVersion = 1;
  // "live", the file it came from, or "nvidia-smi" for a text capture of `nvidia-smi topo -m`
  // (which carries no PCI bus ids, links or PCIe tree: those are unknown, and null in JSON).
  std::string source;
  std::string hostname;
  std::vector<Gpu> gpus;                            // sorted by pci_bus_id; index = GPU#
  std::vector<std::vector<PathClass>> pcie_matrix;  // from PCIe alone
  std::vector<std::vector<int>> nvlink_count;       // [i][j] links; 0 = none
  // nvidia-smi prints NV# where NVLink joins a pair and hides the PCIe class under it: there,
  // pcie_matrix holds a placeholder (SYS), JSON writes null, and diff does not compare it.
  bool pcie_hidden_by_nvlink = false;
  Environment environment;
  std::vector<Nic> nics;              // only from nvidia-smi captures; empty otherwise
  std::vector<P2pStatus> p2p_status;  // from `nvidia-smi topo -p2p` captures; empty = not captured
  // Each GPU's virtual P2P approval capability (GPUDirect clique), index order, as read from its
  // config space where the snapshot was taken live; empty = not read (XML and text captures).
  std::vector<GpudirectCapability> gpudirect;
};

// False where the snapshot cannot say the PCIe class of the pair (hidden under NV#).
bool pcie_class_known(const TopologySnapshot& t, std::size_t a, std::size_t b);
// The first captured P2P status of the pair; nullopt when none was captured.
std::optional<std::string> p2p_status_of(const TopologySnapshot& t, std::size_t a, std::size_t b);
// "CNS (chipset not supported)": the nvidia-smi legend of a status code.
std::string describe_p2p_status(const std::string& code);

}  // namespace p2p::topo
