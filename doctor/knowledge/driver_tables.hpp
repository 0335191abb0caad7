// Knowledge NVIDIA publishes as tables, kept as data (driver_tables.cpp names each source):
// the minimum Linux driver for each CUDA release, and for each GPU architecture the driver
// branches that support it and whether the open kernel modules can drive it. Lookups only.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace p2p::doctor {

// One GPU architecture and the drivers that support it.
struct ArchitectureSupport {
  const char* architecture = "";  // "Kepler", "Pascal", "Hopper", "Blackwell", ...
  const char* generation =
      "";                // GpuGeneration::name: "pre-Turing", "Turing", "Ampere (GA100)", ...
  int first_branch = 0;  // the first driver branch that supports it (0: not tracked)
  int last_branch = 0;   // the last branch that does; 0 while current branches do
  const char* last_release = "";   // the last release of that legacy branch ("470.256.02")
  bool open_module = false;        // the open kernel modules can drive it (it has a GSP)
  bool needs_open_module = false;  // only the open kernel modules support it (R560 and later)
  const char* gsp_firmware = "";   // the GSP firmware file the module loads for it
};

// The architecture of an NVIDIA PCI device id (vendor 0x10de); nullptr for an id no range covers.
const ArchitectureSupport* architecture_of_device(int device_id);

// Every architecture of the table, oldest first, and the first PCI device id of its ranges (for
// tests that walk the table row by row).
std::vector<const ArchitectureSupport*> all_architectures();
int first_device_id_of(const ArchitectureSupport& a);

// The architecture a legacy branch was the last to support (470 -> Kepler); nullptr otherwise.
const ArchitectureSupport* architecture_last_supported_by(int branch);

// The branch of a driver version ("535.129.03" -> 535); nullopt when it does not parse.
std::optional<int> driver_branch(const std::string& version);

// The minimum Linux driver of a CUDA release (1000*major + 10*minor, as cuDriverGetVersion): the
// release's own driver ("12010" -> "530.30.02"), and the oldest driver that runs its applications
// through minor version compatibility ("525.60.13" for every 12.x). nullopt for a release the
// table does not list (a newer one: the table is only as new as this p2pcheck).
std::optional<std::string> min_driver_for_cuda(int cuda_version);
std::optional<std::string> min_driver_for_cuda_major(int cuda_version);

constexpr const char* kCudaDriverTableSource =
    "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (CUDA Toolkit and "
    "Corresponding Driver Versions)";
constexpr const char* kLegacyGpuSource = "https://www.nvidia.com/en-us/drivers/unix/legacy-gpu/";

}  // namespace p2p::doctor
