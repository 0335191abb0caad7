#include "kernels/pointer_chase.hpp"

#include <gtest/gtest.h>

#include "common/cuda_resources.hpp"
#include "kernels/tests/gpu_available.hpp"

namespace {

using namespace p2p;

// The chase must really walk the chain: after `loads` hops from node 0 it stands on node
// loads % nodes, in device memory and in mapped host memory alike.
void walk(void* buffer, std::size_t nodes, std::size_t stride) {
  auto end = cuda::make_device_buffer(0, sizeof(void*));
  kernels::launch_build_chain(buffer, nodes, stride, nullptr);
  for (std::uint64_t loads : {1ull, 999ull, 1000ull, 2500ull}) {
    kernels::launch_pointer_chase(buffer, loads, static_cast<const void**>(end.get()), nullptr);
    const void* reached = nullptr;
    P2P_CHECK(cudaMemcpy(&reached, end.get(), sizeof(reached), cudaMemcpyDeviceToHost));
    EXPECT_EQ(reached, static_cast<char*>(buffer) + (loads % nodes) * stride) << loads << " loads";
  }
}

TEST(PointerChase, WalksAChainInDeviceMemory) {
  P2P_REQUIRE_GPU();
  auto buf = cuda::make_device_buffer(0, 1000 * 128);
  walk(buf.get(), 1000, 128);
}

TEST(PointerChase, WalksAChainInMappedHostMemory) {
  P2P_REQUIRE_GPU();
  auto buf = cuda::make_pinned_host(1000 * 256, cudaHostAllocMapped | cudaHostAllocPortable);
  walk(buf.get(), 1000, 256);
}

TEST(PointerChase, RejectsAStrideThatCannotHoldAPointer) {
  P2P_REQUIRE_GPU();
  auto buf = cuda::make_device_buffer(0, 1024);
  EXPECT_THROW(kernels::launch_build_chain(buf.get(), 10, 4, nullptr), std::invalid_argument);
}

}  // namespace
