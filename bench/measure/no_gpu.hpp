// The no-GPU path: before anything else touches CUDA, find out whether a GPU is usable and,
// if not, say why in one line (no driver, cuInit's error name, no devices). `bench` then exits
// with code 3 instead of crashing on the first CUDA call.
#pragma once

#include <optional>
#include <string>

namespace p2p::bench {

// What the probe saw, as plain data.
struct CudaProbe {
  bool driver_loaded = false;         // libcuda.so.1 could be dlopen()ed
  std::string driver_load_error;      // dlerror() when it could not
  std::optional<int> cu_init_result;  // cuInit(0) through the loaded driver, if called
  std::string cu_init_error_name;     // "CUDA_ERROR_NO_DEVICE"
  int runtime_result = 0;             // cudaGetDeviceCount's cudaError_t
  std::string runtime_error_name;     // "cudaErrorNoDevice"
  std::string runtime_error_text;
  int device_count = 0;
};

// nullopt when at least one GPU is usable; else one line naming the first cause found.
std::optional<std::string> no_gpu_reason(const CudaProbe& probe);

// Loads libcuda.so.1 at run time (never linked), calls cuInit and cudaGetDeviceCount.
CudaProbe probe_cuda();

// probe_cuda() + no_gpu_reason(): returns the device count or throws NoGpuError(reason).
int require_usable_gpus();

}  // namespace p2p::bench
