#include "kernels/tests/gpu_available.hpp"

#include <cuda_runtime_api.h>

namespace p2p::kernels::testing {

std::string why_no_gpu() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    return std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
  }
  if (count == 0) return "cudaGetDeviceCount reports 0 devices";
  return "";
}

}  // namespace p2p::kernels::testing
