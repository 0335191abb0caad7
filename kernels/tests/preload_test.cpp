// On a GPU: every kernel bench launches loads on every device, describes itself, and leaves the
// current device as it was; a device that does not exist is an ApiError naming the call.
#include "kernels/preload.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/cuda_check.hpp"
#include "kernels/tests/gpu_available.hpp"

namespace {

using namespace p2p;

TEST(Preload, LoadsEveryBenchKernelOnEveryDevice) {
  P2P_REQUIRE_GPU();
  int count = 0;
  P2P_CHECK(cudaGetDeviceCount(&count));
  const std::set<std::string> expected = {
      "copy<1>",      "copy<2>",          "copy<4>",    "copy<8>",     "copy<16>",      "copy_pair",
      "fill_pattern", "count_mismatches", "flip_words", "build_chain", "pointer_chase", "latch"};
  for (int device = 0; device < count; ++device) {
    P2P_CHECK(cudaSetDevice(0));
    const auto loaded = kernels::preload_bench_kernels(device);
    int current = -1;
    P2P_CHECK(cudaGetDevice(&current));
    EXPECT_EQ(current, 0) << "device " << device;
    std::set<std::string> names;
    for (const auto& k : loaded) {
      names.insert(k.name);
      // The launchers use up to 1024 threads a block (copy) and 256 (fills, checks).
      EXPECT_GE(k.max_threads_per_block, 256) << k.name << " on device " << device;
      EXPECT_GT(k.registers_per_thread, 0) << k.name << " on device " << device;
    }
    EXPECT_EQ(names, expected) << "device " << device;
    EXPECT_EQ(loaded.size(), expected.size()) << "a kernel loaded twice on device " << device;
  }
}

TEST(Preload, ADeviceThatDoesNotExistIsAnApiError) {
  P2P_REQUIRE_GPU();
  int count = 0;
  P2P_CHECK(cudaGetDeviceCount(&count));
  try {
    kernels::preload_bench_kernels(count);
    FAIL() << "device " << count << " does not exist";
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("cudaSetDevice"), std::string::npos) << e.what();
  }
}

}  // namespace
