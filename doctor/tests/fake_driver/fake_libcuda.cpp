// A stand-in for libcuda.so.1 with two GPUs, so the CUDA and peer-copy probes (dlopen, symbols,
// child process, pipe, JSON) run end to end on machines without a GPU. P2P_FAKE_CUINIT picks
// cuInit's behaviour: unset = success, a number = that CUresult, "crash" = SIGSEGV, "hang" =
// never return. Device memory is host memory; the two "kernels" of the peer-copy probe run here
// as plain loops. P2P_FAKE_PEER=drop makes writes into another device's memory vanish (a peer
// mapping that goes nowhere); P2P_FAKE_PEER=none reports no peer access; P2P_FAKE_MODULE=fail
// makes the PTX load fail.
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

// The same declarations the doctor calls through (a sanitizer checks that the types agree).
#include "doctor/collect/driver_api.hpp"

using namespace p2p::doctor::api;

namespace {

constexpr int kDevices = 2;
const char* const kBusIds[kDevices] = {"0000:41:00.0", "0000:61:00.0"};

std::map<unsigned long long, int> g_owner;  // allocation -> device
std::map<unsigned long long, std::size_t> g_size;
int g_current = 0;

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, value) == 0;
}

int owner_of(unsigned long long ptr) {
  auto it = g_owner.upper_bound(ptr);
  if (it == g_owner.begin()) return -1;
  --it;
  return ptr < it->first + g_size[it->first] ? it->second : -1;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v == nullptr ? fallback : std::atoi(v);
}

void copy(char* out, int len, const std::string& s) {
  std::strncpy(out, s.c_str(), static_cast<std::size_t>(len));
  out[len - 1] = '\0';
}

}  // namespace

extern "C" {

int cuDriverGetVersion(int* v) {
  *v = 13010;
  return 0;
}

int cuInit(unsigned int) {
  const char* mode = std::getenv("P2P_FAKE_CUINIT");
  if (mode == nullptr) return 0;
  if (std::strcmp(mode, "crash") == 0) std::raise(SIGSEGV);
  if (std::strcmp(mode, "hang") == 0) std::this_thread::sleep_for(std::chrono::hours(1));
  return std::atoi(mode);
}

int cuDeviceGetCount(int* n) {
  *n = kDevices;
  return 0;
}

int cuDeviceGet(int* dev, int ordinal) {
  if (ordinal < 0 || ordinal >= kDevices) return 101;
  *dev = ordinal;
  return 0;
}

int cuDeviceGetName(char* name, int len, int dev) {
  copy(name, len, "Fake GPU " + std::to_string(dev));
  return 0;
}

int cuDeviceGetPCIBusId(char* id, int len, int dev) {
  copy(id, len, kBusIds[dev]);
  return 0;
}

int cuDeviceGetAttribute(int* value, int attribute, int) {
  *value = attribute == 75 ? 12 : 0;  // compute capability 12.0
  return 0;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice dev) {
  *ctx = reinterpret_cast<CUcontext>(static_cast<std::uintptr_t>(0x1000 + dev));
  return dev == 1 ? env_int("P2P_FAKE_CTX1", 0) : 0;
}

int cuDevicePrimaryCtxRelease_v2(int) { return 0; }
CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (ctx != nullptr) g_current = static_cast<int>(reinterpret_cast<std::uintptr_t>(ctx) - 0x1000);
  return 0;
}

int cuMemAlloc_v2(unsigned long long* ptr, std::size_t bytes) {
  *ptr = reinterpret_cast<unsigned long long>(std::calloc(bytes, 1));
  g_owner[*ptr] = g_current;
  g_size[*ptr] = bytes;
  return 0;
}

int cuMemFree_v2(unsigned long long) { return 0; }

int cuDeviceCanAccessPeer(int* can, int, int) {
  *can = env_is("P2P_FAKE_PEER", "none") ? 0 : 1;
  return 0;
}
CUresult cuCtxEnablePeerAccess(CUcontext, unsigned) { return 0; }
CUresult cuCtxDisablePeerAccess(CUcontext) { return 0; }
int cuCtxSynchronize() { return 0; }

int cuMemsetD32_v2(unsigned long long ptr, unsigned value, std::size_t count) {
  auto* p = reinterpret_cast<std::uint32_t*>(ptr);
  for (std::size_t i = 0; i < count; ++i) p[i] = value;
  return 0;
}

CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx,
                      std::size_t bytes) {
  if (env_is("P2P_FAKE_PEER", "drop") && dst_ctx != src_ctx) return 0;  // claimed, never arrives
  std::memcpy(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
  return 0;
}

int cuMemcpyDtoH_v2(void* dst, unsigned long long src, std::size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void*>(src), bytes);
  return 0;
}

int cuMemcpyHtoD_v2(unsigned long long dst, const void* src, std::size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
  return 0;
}

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  if (env_is("P2P_FAKE_MODULE", "fail")) return 218;  // CUDA_ERROR_INVALID_PTX
  const bool ours = std::strstr(static_cast<const char*>(image), "p2p_fill") != nullptr &&
                    std::strstr(static_cast<const char*>(image), "p2p_verify") != nullptr;
  *module = reinterpret_cast<CUmodule>(0x2000);
  return ours ? 0 : 218;
}

CUresult cuModuleGetFunction(CUfunction* fn, CUmodule, const char* name) {
  if (std::strcmp(name, "p2p_fill") == 0)
    *fn = reinterpret_cast<CUfunction>(0x3001);
  else if (std::strcmp(name, "p2p_verify") == 0)
    *fn = reinterpret_cast<CUfunction>(0x3002);
  else
    return 500;  // CUDA_ERROR_NOT_FOUND
  return 0;
}

// The two kernels of the peer-copy probe, as loops over the same pattern.
CUresult cuLaunchKernel(CUfunction fn, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, CUstream, void** params, void**) {
  const auto buf = *static_cast<unsigned long long*>(params[0]);
  const unsigned n = *static_cast<unsigned*>(params[1]);
  const unsigned seed = *static_cast<unsigned*>(params[2]);
  auto* p = reinterpret_cast<std::uint32_t*>(buf);
  if (fn == reinterpret_cast<CUfunction>(0x3001)) {
    if (env_is("P2P_FAKE_PEER", "drop") && owner_of(buf) != g_current) return 0;
    for (unsigned i = 0; i < n; ++i) p[i] = i * 0x9E3779B1u + seed;
    return 0;
  }
  auto* bad = reinterpret_cast<std::uint32_t*>(*static_cast<unsigned long long*>(params[3]));
  for (unsigned i = 0; i < n; ++i) *bad += p[i] != i * 0x9E3779B1u + seed;
  return 0;
}

}  // extern "C"
