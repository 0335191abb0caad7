#include "bench/measure/no_gpu.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace {

using namespace p2p::bench;

CudaProbe healthy() {
  CudaProbe p;
  p.driver_loaded = true;
  p.cu_init_result = 0;
  p.device_count = 2;
  return p;
}

TEST(NoGpu, UsableGpusHaveNoReason) { EXPECT_FALSE(no_gpu_reason(healthy())); }

TEST(NoGpu, MissingDriverIsNamedWithTheLoaderMessage) {
  CudaProbe p;
  p.driver_load_error = "libcuda.so.1: cannot open shared object file: No such file or directory";
  const auto why = no_gpu_reason(p);
  ASSERT_TRUE(why);
  EXPECT_EQ(
      why->rfind("no NVIDIA driver: libcuda.so.1 cannot be loaded (libcuda.so.1: cannot open", 0),
      0u)
      << *why;
}

TEST(NoGpu, CuInitFailureIsNamedByItsErrorName) {
  CudaProbe p = healthy();
  p.cu_init_result = 100;
  p.cu_init_error_name = "CUDA_ERROR_NO_DEVICE";
  EXPECT_EQ(no_gpu_reason(p), "cuInit failed: CUDA_ERROR_NO_DEVICE");
  p.cu_init_error_name.clear();
  EXPECT_EQ(no_gpu_reason(p), "cuInit failed: CUresult 100");
}

TEST(NoGpu, RuntimeFailureAndZeroDevices) {
  CudaProbe p = healthy();
  p.runtime_result = 35;
  p.runtime_error_name = "cudaErrorInsufficientDriver";
  p.runtime_error_text = "CUDA driver version is insufficient for CUDA runtime version";
  EXPECT_EQ(
      no_gpu_reason(p),
      "cudaGetDeviceCount failed: cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA "
      "runtime version)");
  p = healthy();
  p.device_count = 0;
  EXPECT_EQ(no_gpu_reason(p), "no CUDA devices: the driver is loaded but reports 0 GPUs");
}

TEST(NoGpu, ReasonIsAlwaysOneLine) {
  CudaProbe p;
  p.driver_load_error = "first\nsecond";
  EXPECT_EQ(no_gpu_reason(p)->find('\n'), std::string::npos);
}

// The real probe on this machine: where no GPU is usable, require_usable_gpus() must throw
// NoGpuError with the probe's reason (never crash, never return).
TEST(NoGpu, ProbeOnThisMachine) {
  const CudaProbe p = probe_cuda();
  const auto why = no_gpu_reason(p);
  if (!why)
    GTEST_SKIP() << "a GPU is usable here (" << p.device_count
                 << " devices): the no-GPU path does not apply";
  try {
    require_usable_gpus();
    FAIL() << "require_usable_gpus returned without a usable GPU";
  } catch (const p2p::NoGpuError& e) {
    EXPECT_EQ(std::string(e.what()), *why);
  }
}

}  // namespace
