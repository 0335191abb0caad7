// Move-only owners for CUDA runtime resources. Each deleter remembers the GPU the resource
// belongs to and frees it there, whichever device is current at the time, so a failed case
// leaves the process clean for the next one. Include only from CUDA targets.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "common/cuda_check.hpp"

namespace p2p::cuda {

// Makes `device` current for the scope and restores the previous one on exit.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    P2P_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) P2P_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() { log_if_failed(cudaSetDevice(previous_), "cudaSetDevice (restore)"); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

template <class T, cudaError_t (*Destroy)(T*)>
struct OnDevice {
  int device = -1;
  void operator()(T* handle) const noexcept {
    if (handle == nullptr) return;
    int previous = 0;
    const bool restore = cudaGetDevice(&previous) == cudaSuccess;
    if (device >= 0) cudaSetDevice(device);
    log_if_failed(Destroy(handle), "CUDA resource destroy");
    if (restore) cudaSetDevice(previous);
  }
};

using Stream = std::unique_ptr<CUstream_st, OnDevice<CUstream_st, cudaStreamDestroy>>;
using Event = std::unique_ptr<CUevent_st, OnDevice<CUevent_st, cudaEventDestroy>>;
using DevicePtr = std::unique_ptr<void, OnDevice<void, cudaFree>>;
using PinnedHostPtr = std::unique_ptr<void, OnDevice<void, cudaFreeHost>>;

inline Stream make_stream(int device) {
  DeviceGuard on(device);
  cudaStream_t s{};
  P2P_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return Stream(s, {device});
}

// Timing events by default; pass cudaEventDisableTiming for pure synchronisation.
inline Event make_event(int device, unsigned flags = cudaEventDefault) {
  DeviceGuard on(device);
  cudaEvent_t e{};
  P2P_CHECK(cudaEventCreateWithFlags(&e, flags));
  return Event(e, {device});
}

inline DevicePtr make_device_buffer(int device, std::size_t bytes) {
  DeviceGuard on(device);
  void* p = nullptr;
  P2P_CHECK(cudaMalloc(&p, bytes));
  return DevicePtr(p, {device});
}

// Page-locked host memory; `flags` as for cudaHostAlloc (cudaHostAllocMapped for GPU loads).
inline PinnedHostPtr make_pinned_host(std::size_t bytes, unsigned flags = cudaHostAllocPortable) {
  void* p = nullptr;
  P2P_CHECK(cudaHostAlloc(&p, bytes, flags));
  return PinnedHostPtr(p, {-1});
}

// Enables `device` → `peer` access for the scope and disables it again on exit (if this
// object enabled it). Peer access is per direction: A reading B needs PeerAccess(A, B).
class PeerAccess {
 public:
  PeerAccess() = default;
  PeerAccess(int device, int peer) : device_(device), peer_(peer) {
    DeviceGuard on(device);
    const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();  // clear the sticky-free error so the next check does not see it
      return;
    }
    P2P_CHECK(e);
    enabled_ = true;
  }
  ~PeerAccess() { reset(); }
  PeerAccess(PeerAccess&& o) noexcept { *this = std::move(o); }
  PeerAccess& operator=(PeerAccess&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      peer_ = o.peer_;
      enabled_ = o.enabled_;
      o.enabled_ = false;
    }
    return *this;
  }
  PeerAccess(const PeerAccess&) = delete;
  PeerAccess& operator=(const PeerAccess&) = delete;

 private:
  void reset() noexcept {
    if (!enabled_) return;
    int previous = 0;
    const bool restore = cudaGetDevice(&previous) == cudaSuccess;
    cudaSetDevice(device_);
    log_if_failed(cudaDeviceDisablePeerAccess(peer_), "cudaDeviceDisablePeerAccess");
    if (restore) cudaSetDevice(previous);
    enabled_ = false;
  }
  int device_ = -1;
  int peer_ = -1;
  bool enabled_ = false;
};

}  // namespace p2p::cuda
