// The latch: a one-thread kernel that holds a stream until the host flips a flag in pinned,
// mapped host memory. Queued at the head of every stream of a sample, it lets the host enqueue
// the whole batch (start event, copies, end event) before any of it runs, so enqueue and launch
// overhead stay out of the timed region and every stream starts at the same moment.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace p2p::kernels {

// Lives in pinned host memory allocated with cudaHostAllocMapped | cudaHostAllocPortable, so
// every GPU can poll it. The host writes `release`; the kernel writes `timed_out`.
struct LatchWords {
  volatile std::uint32_t release;
  volatile std::uint32_t timed_out;  // set when a latch gave up waiting and released itself
};

// Spins until words->release != 0 or `timeout_ns` of GPU global time have passed. The
// timeout means a host that dies or throws before releasing can never hang the GPU; the
// host checks `timed_out` afterwards and discards that sample.
void launch_latch(LatchWords* words, std::uint64_t timeout_ns, cudaStream_t stream);

}  // namespace p2p::kernels
