#include "bench/measure/no_gpu.hpp"

#include <cuda_runtime_api.h>

#include "common/dynamic_library.hpp"
#include "common/error.hpp"

namespace p2p::bench {
namespace {

std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

}  // namespace

std::optional<std::string> no_gpu_reason(const CudaProbe& p) {
  if (!p.driver_loaded) {
    return one_line(
        "no NVIDIA driver: libcuda.so.1 cannot be loaded (" +
        (p.driver_load_error.empty() ? std::string("dlopen failed") : p.driver_load_error) + ")");
  }
  if (p.cu_init_result && *p.cu_init_result != 0) {
    const std::string name = p.cu_init_error_name.empty()
                                 ? "CUresult " + std::to_string(*p.cu_init_result)
                                 : p.cu_init_error_name;
    return one_line("cuInit failed: " + name);
  }
  if (p.runtime_result != 0) {
    return one_line("cudaGetDeviceCount failed: " + p.runtime_error_name + " (" +
                    p.runtime_error_text + ")");
  }
  if (p.device_count <= 0) return "no CUDA devices: the driver is loaded but reports 0 GPUs";
  return std::nullopt;
}

CudaProbe probe_cuda() {
  CudaProbe p;
  const DynamicLibrary cuda = DynamicLibrary::open("libcuda.so.1");
  p.driver_loaded = cuda.loaded();
  p.driver_load_error = cuda.error();
  if (!p.driver_loaded) return p;  // the runtime would only report "insufficient driver"
  using CuInit = int (*)(unsigned);
  using CuGetErrorName = int (*)(int, const char**);
  if (const auto cu_init = cuda.function<CuInit>("cuInit")) {
    p.cu_init_result = cu_init(0);
    if (*p.cu_init_result != 0) {
      if (const auto name_of = cuda.function<CuGetErrorName>("cuGetErrorName")) {
        const char* name = nullptr;
        if (name_of(*p.cu_init_result, &name) == 0 && name != nullptr) p.cu_init_error_name = name;
      }
      return p;
    }
  }
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  p.runtime_result = static_cast<int>(e);
  if (e != cudaSuccess) {
    p.runtime_error_name = cudaGetErrorName(e);
    p.runtime_error_text = cudaGetErrorString(e);
    cudaGetLastError();
    return p;
  }
  p.device_count = count;
  return p;
}

int require_usable_gpus() {
  const CudaProbe p = probe_cuda();
  if (const auto why = no_gpu_reason(p)) throw NoGpuError(*why);
  return p.device_count;
}

}  // namespace p2p::bench
