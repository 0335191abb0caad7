// CUDA runtime errors on the project's one error path. Include only from CUDA targets.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "common/error.hpp"

namespace p2p {

inline void check(cudaError_t e, CallSite at) {
  if (e != cudaSuccess) {
    throw ApiError("CUDA", static_cast<int>(e),
                   std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e), at);
  }
}

// For destructors, which must never throw. Quiet during process teardown, when the
// runtime is already unloading and every call reports cudaErrorCudartUnloading.
inline void log_if_failed(cudaError_t e, const char* what) noexcept {
  if (e == cudaSuccess || e == cudaErrorCudartUnloading) return;
  std::fprintf(stderr, "p2pcheck: warning: %s failed: %s\n", what, cudaGetErrorString(e));
}

}  // namespace p2p
