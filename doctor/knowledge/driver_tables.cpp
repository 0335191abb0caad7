// The tables. Sources:
// - Minimum driver per CUDA release: the CUDA Toolkit release notes, table "CUDA Toolkit and
//   Corresponding Driver Versions" (Linux x86_64, the GA release of each toolkit), and the minor
//   version compatibility minimums of https://docs.nvidia.com/deploy/cuda-compatibility/.
// - Architectures and driver branches: NVIDIA's legacy GPU list
//   (https://www.nvidia.com/en-us/drivers/unix/legacy-gpu/: Tesla ends with 340, Fermi with 390,
//   Kepler with 470; Maxwell, Pascal and Volta with 580, per the R580 release notes), the first
//   branch of each newer architecture from its launch driver, and the device-id ranges of each
//   architecture as the driver README's "Supported NVIDIA GPU Products" appendix lists them.
// - Open kernel modules: Turing and newer only (they need the GSP), per the open-gpu-kernel-modules
//   README; Blackwell only with them, from R560
//   (https://developer.nvidia.com/blog/nvidia-transitions-fully-towards-open-source-gpu-kernel-modules/).
// - GSP firmware file per architecture: the driver's nv-firmware.h.
#include "doctor/knowledge/driver_tables.hpp"

#include <cstdlib>

namespace p2p::doctor {

namespace {

const ArchitectureSupport kArchitectures[] = {
    // architecture, generation, first branch (0: before the table's concern), last branch, last
    // release of that branch, open modules can drive it, only they can, GSP firmware
    {"Tesla", "pre-Turing", 0, 340, "340.108", false, false, ""},
    {"Fermi", "pre-Turing", 0, 390, "390.157", false, false, ""},
    {"Kepler", "pre-Turing", 0, 470, "470.256.02", false, false, ""},
    {"Maxwell", "pre-Turing", 0, 580, "", false, false, ""},
    {"Pascal", "pre-Turing", 0, 580, "", false, false, ""},
    {"Volta", "pre-Turing", 0, 580, "", false, false, ""},
    {"Turing", "Turing", 410, 0, "", true, false, "gsp_tu10x.bin"},
    {"Ampere (GA100)", "Ampere (GA100)", 450, 0, "", true, false, "gsp_tu10x.bin"},
    {"Ampere", "Ampere", 455, 0, "", true, false, "gsp_ga10x.bin"},
    {"Hopper", "Hopper", 520, 0, "", true, false, "gsp_ga10x.bin"},
    {"Ada", "Ada", 520, 0, "", true, false, "gsp_ga10x.bin"},
    {"Blackwell", "Blackwell", 570, 0, "", true, true, "gsp_ga10x.bin"},
};

struct DeviceRange {
  int first;
  int last;
  const char* architecture;
};

// First match wins: the narrow Volta ranges come before Pascal's.
const DeviceRange kDeviceRanges[] = {
    {0x0190, 0x05FF, "Tesla"},     {0x06E0, 0x06FF, "Tesla"},          {0x0840, 0x087F, "Tesla"},
    {0x0A20, 0x0AFF, "Tesla"},     {0x0CA0, 0x0CBF, "Tesla"},          {0x06C0, 0x06DF, "Fermi"},
    {0x0DC0, 0x0DFF, "Fermi"},     {0x0E20, 0x0E3F, "Fermi"},          {0x0F00, 0x0F1F, "Fermi"},
    {0x1040, 0x10BF, "Fermi"},     {0x1140, 0x117F, "Fermi"},          {0x1200, 0x125F, "Fermi"},
    {0x0FC0, 0x103F, "Kepler"},    {0x1180, 0x11FF, "Kepler"},         {0x1280, 0x12BF, "Kepler"},
    {0x1340, 0x143F, "Maxwell"},   {0x1617, 0x1667, "Maxwell"},        {0x1740, 0x17FF, "Maxwell"},
    {0x1D81, 0x1D81, "Volta"},     {0x1DB0, 0x1DBF, "Volta"},          {0x1DF0, 0x1DFF, "Volta"},
    {0x15F0, 0x15FF, "Pascal"},    {0x1B00, 0x1D7F, "Pascal"},         {0x1E00, 0x1FFF, "Turing"},
    {0x2180, 0x21FF, "Turing"},    {0x20B0, 0x20FF, "Ampere (GA100)"}, {0x2200, 0x22FF, "Ampere"},
    {0x2400, 0x25FF, "Ampere"},    {0x2300, 0x23FF, "Hopper"},         {0x2600, 0x28FF, "Ada"},
    {0x2900, 0x3FFF, "Blackwell"},
};

struct CudaDriver {
  int cuda_version;
  const char* min_driver;
};

const CudaDriver kCudaDrivers[] = {
    {13000, "580.65.06"}, {12090, "575.51.03"}, {12080, "570.26"},    {12060, "560.28.03"},
    {12050, "555.42.02"}, {12040, "550.54.14"}, {12030, "545.23.06"}, {12020, "535.54.03"},
    {12010, "530.30.02"}, {12000, "525.60.13"}, {11080, "520.61.05"}, {11070, "515.43.04"},
    {11060, "510.39.01"}, {11050, "495.29.05"}, {11040, "470.42.01"}, {11030, "465.19.01"},
    {11020, "460.27.03"}, {11010, "455.23"},    {11000, "450.36.06"}, {10020, "440.33"},
    {10010, "418.39"},    {10000, "410.48"},    {9020, "396.26"},     {9010, "390.46"},
    {9000, "384.81"},     {8000, "375.26"},     {7050, "352.31"},     {7000, "346.46"},
};

// The oldest driver that runs applications of any minor release of a CUDA major version.
const CudaDriver kMinorVersionCompatibility[] = {
    {13000, "580.65.06"}, {12000, "525.60.13"}, {11000, "450.80.02"}};

}  // namespace

const ArchitectureSupport* architecture_of_device(int device_id) {
  for (const auto& r : kDeviceRanges) {
    if (device_id < r.first || device_id > r.last) continue;
    for (const auto& a : kArchitectures)
      if (std::string(a.architecture) == r.architecture) return &a;
  }
  return nullptr;
}

std::vector<const ArchitectureSupport*> all_architectures() {
  std::vector<const ArchitectureSupport*> out;
  for (const auto& a : kArchitectures) out.push_back(&a);
  return out;
}

int first_device_id_of(const ArchitectureSupport& a) {
  for (const auto& r : kDeviceRanges)
    if (std::string(a.architecture) == r.architecture) return r.first;
  return 0;
}

const ArchitectureSupport* architecture_last_supported_by(int branch) {
  for (const auto& a : kArchitectures)
    if (a.last_branch == branch) return &a;
  return nullptr;
}

std::optional<int> driver_branch(const std::string& version) {
  const auto dot = version.find('.');
  if (dot == 0 || dot == std::string::npos) return std::nullopt;
  for (std::size_t i = 0; i < dot; ++i)
    if (version[i] < '0' || version[i] > '9') return std::nullopt;
  return std::atoi(version.substr(0, dot).c_str());
}

std::optional<std::string> min_driver_for_cuda(int cuda_version) {
  for (const auto& row : kCudaDrivers)
    if (row.cuda_version == cuda_version) return std::string(row.min_driver);
  return std::nullopt;
}

std::optional<std::string> min_driver_for_cuda_major(int cuda_version) {
  for (const auto& row : kMinorVersionCompatibility)
    if (row.cuda_version / 1000 == cuda_version / 1000) return std::string(row.min_driver);
  return std::nullopt;
}

}  // namespace p2p::doctor
