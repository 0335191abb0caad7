// Bench-side owners on top of common/cuda_resources.hpp: a buffer on any endpoint, the latch's
// pinned flag, and waiting for a stream with a deadline instead of blocking forever.
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "bench/endpoint.hpp"
#include "bench/measure/buffer_cache.hpp"
#include "bench/measure/host_memory.hpp"
#include "common/cuda_resources.hpp"
#include "kernels/latch.hpp"

namespace p2p::bench {

// Anonymous memory, 2 MiB aligned, advised to use transparent huge pages, faulted in and pinned
// with cudaHostRegister (mapped, portable). Unregistered and unmapped on destruction.
class RegisteredHostMemory {
 public:
  RegisteredHostMemory() = default;
  static RegisteredHostMemory allocate(std::size_t bytes);
  ~RegisteredHostMemory();
  RegisteredHostMemory(RegisteredHostMemory&& o) noexcept;
  RegisteredHostMemory& operator=(RegisteredHostMemory&& o) noexcept;
  RegisteredHostMemory(const RegisteredHostMemory&) = delete;
  RegisteredHostMemory& operator=(const RegisteredHostMemory&) = delete;
  void* get() const { return aligned_; }

 private:
  void reset() noexcept;
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
  void* aligned_ = nullptr;
  bool registered_ = false;
};

// Pinned host memory (portable, mapped) kept between the figures of a run: see buffer_cache.hpp.
using PinnedHostCache = BufferCache<cuda::PinnedHostPtr>;
std::shared_ptr<PinnedHostCache> make_pinned_host_cache(std::size_t budget_bytes);

// Device memory on a GPU endpoint, or pinned host memory mapped into every GPU (portable,
// mapped) for the host endpoint; with unified addressing the same pointer works everywhere.
class Buffer {
 public:
  Buffer() = default;
  // A GPU endpoint's memory goes on `device` (its CUDA device; -1: the endpoint's id is one).
  // Pinned host memory comes from `cache` when one is given (it may hold more than `bytes`).
  static Buffer allocate(const Endpoint& where, std::size_t bytes,
                         HostMemory host = HostMemory::kPinned, int device = -1,
                         const std::shared_ptr<PinnedHostCache>& cache = nullptr);
  void* get() const {
    if (device_) return device_.get();
    if (host_) return host_.get();
    if (leased_) return leased_->memory().get();
    return registered_.get();
  }

 private:
  cuda::DevicePtr device_;
  cuda::PinnedHostPtr host_;
  std::optional<PinnedHostCache::Lease> leased_;
  RegisteredHostMemory registered_;
};

// Owns the latch words. arm() before enqueueing a sample, hold() at the head of each stream,
// release() once everything is queued, timed_out() after the streams finished.
class Latch {
 public:
  Latch();
  // Releases any latch kernel still spinning (a sample that threw half-way), so freeing the
  // words never waits for the self-release timeout.
  ~Latch();
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;
  void arm();
  void hold(cudaStream_t stream, std::uint64_t timeout_ns);  // on the current device
  void release();
  bool timed_out() const;

 private:
  cuda::PinnedHostPtr memory_;
  kernels::LatchWords* words_ = nullptr;
};

using Deadline = std::chrono::steady_clock::time_point;
Deadline deadline_after(double seconds);

// Polls the stream until its work is done. Throws HangError naming `what` after the deadline,
// ApiError for an asynchronous CUDA error.
void wait_until_done(cudaStream_t stream, Deadline deadline, const std::string& what);

}  // namespace p2p::bench
