#include "spin_kernel.hpp"

#include "common/cuda_check.hpp"

namespace p2p::nccl::testing {

namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(volatile int* flag, unsigned long long max_ns) {
  const unsigned long long start = global_ns();
  while (*flag == 0 && global_ns() - start < max_ns) __nanosleep(1000);
}

}  // namespace

void launch_spin(volatile int* flag, unsigned long long max_ns, cudaStream_t stream) {
  int* device_flag = nullptr;
  P2P_CHECK(
      cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag), const_cast<int*>(flag), 0));
  spin<<<1, 1, 0, stream>>>(device_flag, max_ns);
  P2P_CHECK(cudaGetLastError());
}

}  // namespace p2p::nccl::testing
