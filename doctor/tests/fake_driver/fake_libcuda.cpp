// A stand-in for libcuda.so.1 with two GPUs, so the CUDA probe (dlopen, symbols, child process,
// pipe, JSON) runs end to end on machines without a GPU. P2P_FAKE_CUINIT picks cuInit's
// behaviour: unset = success, a number = that CUresult, "crash" = SIGSEGV, "hang" = never return.
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

constexpr int kDevices = 2;
const char* const kBusIds[kDevices] = {"0000:41:00.0", "0000:61:00.0"};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v == nullptr ? fallback : std::atoi(v);
}

void copy(char* out, int len, const std::string& s) {
  std::strncpy(out, s.c_str(), static_cast<std::size_t>(len));
  out[len - 1] = '\0';
}

}  // namespace

// The context type as the doctor declares it (doctor/driver_api.hpp): calling a function through
// a pointer of another type is undefined behaviour, and UBSan (-fsanitize=function) reports it.
namespace p2p::doctor::api {
struct CUctx_st;
}
using CUctx = p2p::doctor::api::CUctx_st;

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

int cuDevicePrimaryCtxRetain(CUctx** ctx, int dev) {
  *ctx = reinterpret_cast<CUctx*>(static_cast<std::uintptr_t>(0x1000 + dev));
  return dev == 1 ? env_int("P2P_FAKE_CTX1", 0) : 0;
}

int cuDevicePrimaryCtxRelease_v2(int) { return 0; }
int cuCtxSetCurrent(CUctx*) { return 0; }

int cuMemAlloc_v2(unsigned long long* ptr, std::size_t) {
  *ptr = 0x7f0000000000ull;
  return 0;
}

int cuMemFree_v2(unsigned long long) { return 0; }

}  // extern "C"
