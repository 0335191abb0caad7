// The few CUDA driver API and NVML entry points the doctor calls, declared here so that the
// doctor needs neither cuda.h nor nvml.h and links neither library: both are dlopen()ed at run
// time. Types follow the public headers (cuda.h, nvml.h); structs that NVML fills are wrapped
// in padded unions so that a newer library writing a larger struct cannot overrun our stack.
#pragma once

#include <cstddef>
#include <cstdint>

namespace p2p::doctor::api {

// --- CUDA driver API (cuda.h) ---
using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUdeviceptr = unsigned long long;  // 64-bit builds only
constexpr int kCuAttrComputeCapabilityMajor = 75;
constexpr int kCuAttrComputeCapabilityMinor = 76;

using cuInit_t = CUresult (*)(unsigned int flags);
using cuDriverGetVersion_t = CUresult (*)(int* version);
using cuDeviceGetCount_t = CUresult (*)(int* count);
using cuDeviceGet_t = CUresult (*)(CUdevice* device, int ordinal);
using cuDeviceGetName_t = CUresult (*)(char* name, int len, CUdevice device);
using cuDeviceGetPCIBusId_t = CUresult (*)(char* bus_id, int len, CUdevice device);
using cuDeviceGetAttribute_t = CUresult (*)(int* value, int attribute, CUdevice device);
using cuDevicePrimaryCtxRetain_t = CUresult (*)(CUcontext* ctx, CUdevice device);
using cuDevicePrimaryCtxRelease_t = CUresult (*)(CUdevice device);  // exported as ..._v2
using cuCtxSetCurrent_t = CUresult (*)(CUcontext ctx);
using cuMemAlloc_t = CUresult (*)(CUdeviceptr* ptr,
                                  std::size_t bytes);  // exported as cuMemAlloc_v2
using cuMemFree_t = CUresult (*)(CUdeviceptr ptr);     // exported as cuMemFree_v2

// For the peer-copy probe.
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
constexpr CUresult kCuErrorPeerAccessAlreadyEnabled = 704;
using cuDeviceCanAccessPeer_t = CUresult (*)(int* can, CUdevice device, CUdevice peer);
using cuCtxEnablePeerAccess_t = CUresult (*)(CUcontext peer, unsigned int flags);
using cuCtxDisablePeerAccess_t = CUresult (*)(CUcontext peer);
using cuCtxSynchronize_t = CUresult (*)();
using cuMemsetD32_t = CUresult (*)(CUdeviceptr ptr, unsigned int value,
                                   std::size_t count);  // cuMemsetD32_v2
using cuMemcpyPeer_t = CUresult (*)(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                                    CUcontext src_ctx, std::size_t bytes);
using cuMemcpyDtoH_t = CUresult (*)(void* dst, CUdeviceptr src,
                                    std::size_t bytes);  // cuMemcpyDtoH_v2
using cuMemcpyHtoD_t = CUresult (*)(CUdeviceptr dst, const void* src,
                                    std::size_t bytes);  // cuMemcpyHtoD_v2
using cuModuleLoadData_t = CUresult (*)(CUmodule* module, const void* image);
using cuModuleGetFunction_t = CUresult (*)(CUfunction* fn, CUmodule module, const char* name);
using cuLaunchKernel_t = CUresult (*)(CUfunction fn, unsigned grid_x, unsigned grid_y,
                                      unsigned grid_z, unsigned block_x, unsigned block_y,
                                      unsigned block_z, unsigned shared_bytes, CUstream stream,
                                      void** params, void** extra);

// --- NVML (nvml.h) ---
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;

struct nvmlPciInfo_v3 {  // nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
};
union PciInfoBuffer {
  nvmlPciInfo_v3 info;
  unsigned char padding[512];
};

struct nvmlBAR1Memory {
  unsigned long long bar1Total;
  unsigned long long bar1Free;
  unsigned long long bar1Used;
};
union Bar1Buffer {
  nvmlBAR1Memory info;
  unsigned char padding[256];
};

struct nvmlGpuFabricInfo {  // the unversioned nvmlGpuFabricInfo_t of nvmlDeviceGetGpuFabricInfo
  unsigned char clusterUuid[16];
  nvmlReturn_t status;
  unsigned int cliqueId;
  unsigned char state;  // 0 not supported, 1 not started, 2 in progress, 3 completed
};
union FabricBuffer {
  nvmlGpuFabricInfo info;
  unsigned char padding[256];
};

constexpr int kNvmlP2pRead = 0;
constexpr int kNvmlP2pWrite = 1;
constexpr int kNvmlP2pNvlink = 2;

using nvmlInit_t = nvmlReturn_t (*)();
using nvmlSystemGetDriverVersion_t = nvmlReturn_t (*)(char* version, unsigned int len);
using nvmlSystemGetCudaDriverVersion_t = nvmlReturn_t (*)(int* version);
using nvmlDeviceGetCount_t = nvmlReturn_t (*)(unsigned int* count);
using nvmlDeviceGetHandleByIndex_t = nvmlReturn_t (*)(unsigned int index, nvmlDevice_t* device);
using nvmlDeviceGetPciInfo_t = nvmlReturn_t (*)(nvmlDevice_t device, nvmlPciInfo_v3* pci);
using nvmlDeviceGetName_t = nvmlReturn_t (*)(nvmlDevice_t device, char* name, unsigned int len);
using nvmlDeviceGetUint_t = nvmlReturn_t (*)(nvmlDevice_t device,
                                             unsigned int* value);  // enums are ints
using nvmlDeviceGetP2PStatus_t = nvmlReturn_t (*)(nvmlDevice_t a, nvmlDevice_t b, int index,
                                                  int* status);
using nvmlDeviceGetTopologyCommonAncestor_t = nvmlReturn_t (*)(nvmlDevice_t a, nvmlDevice_t b,
                                                               int* level);
using nvmlDeviceGetBAR1MemoryInfo_t = nvmlReturn_t (*)(nvmlDevice_t device, nvmlBAR1Memory* bar1);
using nvmlDeviceGetGspFirmwareMode_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* enabled,
                                                        unsigned int* default_mode);
using nvmlDeviceGetGspFirmwareVersion_t = nvmlReturn_t (*)(nvmlDevice_t device,
                                                           char* version);  // 64-byte buffer
using nvmlDeviceGetGpuFabricInfo_t = nvmlReturn_t (*)(nvmlDevice_t device, nvmlGpuFabricInfo* info);

// nvmlProcessInfo_t as the _v2 and _v3 process queries fill it (nvml.h).
struct nvmlProcessInfo {
  unsigned int pid;
  unsigned long long usedGpuMemory;  // NVML_VALUE_NOT_AVAILABLE (all ones) where unknown
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
struct nvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};

// The most processes one query lists here (past it NVML answers INSUFFICIENT_SIZE, and the list
// is not worth a retry), and the memory figure NVML gives when it cannot tell.
constexpr unsigned int kNvmlMaxProcesses = 256;
constexpr unsigned long long kNvmlNotAvailable = ~0ULL;

}  // namespace p2p::doctor::api
