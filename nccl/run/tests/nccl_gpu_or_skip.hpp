// The preamble of every NCCL GPU test (label gpu): NCCL must load and CUDA must see a device;
// otherwise the test skips and says which of the two is missing. Header-only; test code only.
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "common/error.hpp"
#include "nccl/run/nccl_api.hpp"

namespace p2p::testing {

// Why a test that needs NCCL and a GPU cannot run here, or nullopt when it can; `devices`
// (where given) gets the number of devices CUDA sees. Use: if (auto why = ...) GTEST_SKIP() <<
// *why;
inline std::optional<std::string> nccl_gpu_unusable(int* devices = nullptr) {
  try {
    nccl::nccl_api();
  } catch (const NoGpuError& e) {
    return std::string("NCCL is not usable here: ") + e.what();
  }
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0)
    return std::string("no usable CUDA device: ") +
           (e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
  if (devices != nullptr) *devices = n;
  return std::nullopt;
}

}  // namespace p2p::testing
