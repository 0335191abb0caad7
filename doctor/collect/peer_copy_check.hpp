// The copy and check of the peer-copy probe, for its child process (probe_peer_copy.cpp): the
// driver calls it needs, one logical GPU's context, buffers and kernels, and the check of one
// ordered pair. Internal to p2p_doctor_collect.
#pragma once

#include <stdexcept>
#include <string>

#include "common/dynamic_library.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/facts.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor::peer_copy {

// A failed driver call: which one and its CUresult.
struct CallFailed : std::runtime_error {
  CallFailed(const std::string& what, api::CUresult r)
      : std::runtime_error(what + " = " + std::to_string(r) + " " + cu_result_name(r)) {}
};

// Throws CallFailed unless `r` is CUDA_SUCCESS.
void call(api::CUresult r, const char* what);

struct Api {
  api::cuDeviceGet_t device_get = nullptr;
  api::cuDeviceGetPCIBusId_t bus_id = nullptr;
  api::cuDevicePrimaryCtxRetain_t retain = nullptr;
  api::cuCtxSetCurrent_t set_current = nullptr;
  api::cuDeviceCanAccessPeer_t can_access = nullptr;
  api::cuCtxEnablePeerAccess_t enable_peer = nullptr;
  // Optional: without it peer access stays enabled, and a GPU with more than 8 peers runs into
  // CUDA_ERROR_TOO_MANY_PEERS.
  api::cuCtxDisablePeerAccess_t disable_peer = nullptr;
  api::cuCtxSynchronize_t sync = nullptr;
  api::cuMemAlloc_t alloc = nullptr;
  api::cuMemsetD32_t memset32 = nullptr;
  api::cuMemcpyPeer_t copy_peer = nullptr;
  api::cuMemcpyDtoH_t to_host = nullptr;
  api::cuMemcpyHtoD_t to_device = nullptr;
  api::cuModuleLoadData_t load_module = nullptr;
  api::cuModuleGetFunction_t get_function = nullptr;
  api::cuLaunchKernel_t launch = nullptr;

  explicit Api(const DynamicLibrary& lib);
  // The first function the probe cannot run without that `lib` lacks; nullptr when none.
  const char* missing() const;
};

// One logical GPU: a real device, its primary context, its buffers and (where the PTX loaded)
// its kernels. Nothing is freed: the child exits right after the last snapshot.
struct Gpu {
  int device_ordinal = 0;
  api::CUdevice device = 0;
  api::CUcontext ctx = nullptr;
  std::string bus_id;
  api::CUdeviceptr src = 0;      // the pattern it sends
  api::CUdeviceptr dst = 0;      // where peers write into it
  api::CUdeviceptr counter = 0;  // mismatch count of the verify kernel
  api::CUfunction fill = nullptr;
  api::CUfunction verify = nullptr;
  std::string no_kernels;  // why the kernels are not available ("" when they are)
};

// Retains `g`'s context, allocates its buffers and loads its kernels (or says why not).
void prepare(const Api& api, Gpu& g);

// Copies from `s` to `d` with cuMemcpyPeer, then stores from `s`'s SMs into `d`, and counts on `d`
// the words that did not arrive; the results and notes go into `p`.
void check_pair(const Api& api, const Gpu& s, const Gpu& d, PeerCopyPair& p);

}  // namespace p2p::doctor::peer_copy
