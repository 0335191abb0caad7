#include "kernels/preload.hpp"

#include <cuda_runtime_api.h>

#include "common/cuda_check.hpp"
#include "common/cuda_resources.hpp"

namespace p2p::kernels {

LoadedKernel load_kernel(const char* name, const void* entry) {
  cudaFuncAttributes attributes{};
  P2P_CHECK(cudaFuncGetAttributes(&attributes, entry));
  return {name, attributes.maxThreadsPerBlock, attributes.numRegs};
}

std::vector<LoadedKernel> preload_bench_kernels(int device) {
  cuda::DeviceGuard on(device);
  std::vector<LoadedKernel> loaded;
  preload_copy_kernels(loaded);
  preload_pattern_kernels(loaded);
  preload_pointer_chase_kernels(loaded);
  preload_latch_kernels(loaded);
  return loaded;
}

}  // namespace p2p::kernels
