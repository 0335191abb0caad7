// A stand-in for libnvidia-ml.so.1 with two GPUs (see fake_libcuda.cpp). It fills the structs
// through the doctor's own declarations, so it checks the probe's plumbing, not NVML's ABI.
// P2P_FAKE_NVML_PROCS="PID:KIND:BYTES,..." lists processes on GPU 0 (KIND compute or graphics);
// P2P_FAKE_NVML_UTIL=N is GPU 0's utilisation in percent; P2P_FAKE_NVML_LOST=N makes GPU N's handle
// NVML_ERROR_GPU_IS_LOST. The health queries are in fake_libnvml_health.cpp.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "doctor/collect/driver_api.hpp"

using namespace p2p::doctor::api;

namespace {

constexpr unsigned kDevices = 2;

nvmlDevice_t handle(unsigned i) {
  return reinterpret_cast<nvmlDevice_t>(static_cast<std::uintptr_t>(0x100 + i));
}
unsigned index_of(nvmlDevice_t d) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) - 0x100);
}

}  // namespace

extern "C" {

int nvmlInit_v2() {
  const char* v = std::getenv("P2P_FAKE_NVMLINIT");
  return v == nullptr ? 0 : std::atoi(v);
}

int nvmlSystemGetDriverVersion(char* out, unsigned len) {
  std::strncpy(out, "590.48.01", len);
  return 0;
}

int nvmlSystemGetCudaDriverVersion_v2(int* v) {
  *v = 13010;
  return 0;
}

int nvmlDeviceGetCount_v2(unsigned* n) {
  *n = kDevices;
  return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  if (i >= kDevices) return 2;
  const char* lost = std::getenv("P2P_FAKE_NVML_LOST");
  if (lost != nullptr && static_cast<unsigned>(std::atoi(lost)) == i) return 15;  // GPU_IS_LOST
  *d = handle(i);
  return 0;
}

int nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_v3* pci) {
  std::memset(pci, 0, sizeof *pci);
  std::strcpy(pci->busId, index_of(d) == 0 ? "00000000:41:00.0" : "00000000:61:00.0");
  return 0;
}

int nvmlDeviceGetUUID(nvmlDevice_t d, char* out, unsigned len) {
  std::strncpy(out,
               index_of(d) == 0 ? "GPU-0a1b2c3d-0000-1111-2222-333344445555"
                                : "GPU-9f8e7d6c-0000-1111-2222-333344445555",
               len);
  return 0;
}

int nvmlDeviceGetName(nvmlDevice_t d, char* out, unsigned len) {
  std::strncpy(out, ("Fake GPU " + std::to_string(index_of(d))).c_str(), len);
  return 0;
}

int nvmlDeviceGetArchitecture(nvmlDevice_t, unsigned* v) { return *v = 10, 0; }
int nvmlDeviceGetVirtualizationMode(nvmlDevice_t, unsigned* v) { return *v = 1, 0; }
int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t, unsigned* v) { return *v = 5, 0; }
int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t, unsigned* v) { return *v = 5, 0; }
int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* v) {
  return *v = index_of(d) == 1 ? 8 : 16, 0;
}
int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t, unsigned* v) { return *v = 16, 0; }
int nvmlDeviceGetPersistenceMode(nvmlDevice_t, unsigned* v) { return *v = 1, 0; }
int nvmlDeviceGetComputeMode(nvmlDevice_t, unsigned* v) { return *v = 0, 0; }

int nvmlDeviceGetBAR1MemoryInfo(nvmlDevice_t, nvmlBAR1Memory* b) {
  b->bar1Total = 128ull << 30;
  b->bar1Free = b->bar1Total;
  b->bar1Used = 0;
  return 0;
}

int nvmlDeviceGetGspFirmwareMode(nvmlDevice_t, unsigned* enabled, unsigned* default_mode) {
  *enabled = 1;
  *default_mode = 1;
  return 0;
}

int nvmlDeviceGetGspFirmwareVersion(nvmlDevice_t, char* out) {
  std::strcpy(out, "590.48.01");
  return 0;
}

int nvmlDeviceGetGpuFabricInfo(nvmlDevice_t, nvmlGpuFabricInfo*) {
  return 3;
}  // NOT_SUPPORTED: no NVSwitch

int nvmlDeviceGetP2PStatus(nvmlDevice_t, nvmlDevice_t, int index, int* status) {
  *status = index == kNvmlP2pNvlink
                ? 5
                : 1;  // CHIPSET_NOT_SUPPORTED for read/write, NOT_SUPPORTED for NVLink
  return 0;
}

int nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t, nvmlDevice_t, int* level) {
  return *level = 30, 0;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus, nvmlDevice_t* d) {
  if (std::strstr(bus, "41:00.0") != nullptr) return *d = handle(0), 0;
  if (std::strstr(bus, "61:00.0") != nullptr) return *d = handle(1), 0;
  return 6;  // NVML_ERROR_NOT_FOUND
}

using FakeProcessInfo =
    nvmlProcessInfo;  // the doctor's declaration: a sanitizer checks the types agree

int fake_processes(nvmlDevice_t d, unsigned* count, FakeProcessInfo* out, const char* kind) {
  unsigned n = 0;
  const char* list = std::getenv("P2P_FAKE_NVML_PROCS");
  for (std::string rest = list == nullptr || index_of(d) != 0 ? "" : list; !rest.empty();) {
    const auto comma = rest.find(',');
    const std::string one = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    const auto a = one.find(':'), b = one.find(':', a + 1);
    if (one.substr(a + 1, b - a - 1) != kind) continue;
    if (n == *count) return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
    out[n++] = {static_cast<unsigned>(std::stoul(one.substr(0, a))), std::stoull(one.substr(b + 1)),
                0, 0};
  }
  *count = n;
  return 0;
}

int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned* count, FakeProcessInfo* out) {
  return fake_processes(d, count, out, "compute");
}
int nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned* count,
                                             FakeProcessInfo* out) {
  return fake_processes(d, count, out, "graphics");
}

int nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization* rates) {
  const char* v = std::getenv("P2P_FAKE_NVML_UTIL");
  rates->gpu = v != nullptr && index_of(d) == 0 ? static_cast<unsigned>(std::atoi(v)) : 0;
  rates->memory = 0;
  return 0;
}

}  // extern "C"
