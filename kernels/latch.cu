#include "kernels/latch.hpp"

#include "common/cuda_check.hpp"
#include "kernels/preload.hpp"

namespace p2p::kernels {
namespace {

__device__ std::uint64_t global_time_ns() {
  std::uint64_t t;
  // %globaltimer is wall-clock nanoseconds, unlike clock64() whose rate follows SM clocks.
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void latch_kernel(LatchWords* words, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_time_ns();
  while (words->release == 0) {
    if (global_time_ns() - start > timeout_ns) {
      words->timed_out = 1;
      __threadfence_system();
      return;
    }
    // Each poll is a read across PCIe; pausing keeps that traffic negligible next to the
    // copies queued on other streams that may already be running.
    __nanosleep(200);
  }
}

}  // namespace

void launch_latch(LatchWords* words, std::uint64_t timeout_ns, cudaStream_t stream) {
  latch_kernel<<<1, 1, 0, stream>>>(words, timeout_ns);
  P2P_CHECK(cudaGetLastError());
}

void preload_latch_kernels(std::vector<LoadedKernel>& loaded) {
  loaded.push_back(load_kernel("latch", reinterpret_cast<const void*>(latch_kernel)));
}

}  // namespace p2p::kernels
