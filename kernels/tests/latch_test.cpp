#include "kernels/latch.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "common/cuda_resources.hpp"
#include "kernels/tests/gpu_available.hpp"

namespace {

using namespace p2p;

kernels::LatchWords* words_of(cuda::PinnedHostPtr& p) {
  return static_cast<kernels::LatchWords*>(p.get());
}

TEST(Latch, HoldsTheStreamUntilReleased) {
  P2P_REQUIRE_GPU();
  auto mem = cuda::make_pinned_host(sizeof(kernels::LatchWords),
                                    cudaHostAllocMapped | cudaHostAllocPortable);
  auto* w = words_of(mem);
  w->release = 0;
  w->timed_out = 0;
  auto stream = cuda::make_stream(0);
  auto done = cuda::make_event(0, cudaEventDisableTiming);
  kernels::launch_latch(w, 10'000'000'000ull, stream.get());
  P2P_CHECK(cudaEventRecord(done.get(), stream.get()));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(cudaEventQuery(done.get()), cudaErrorNotReady) << "the latch let the stream run";
  w->release = 1;
  P2P_CHECK(cudaStreamSynchronize(stream.get()));
  EXPECT_EQ(w->timed_out, 0u);
}

TEST(Latch, ReleasesItselfAfterTheTimeoutAndSaysSo) {
  P2P_REQUIRE_GPU();
  auto mem = cuda::make_pinned_host(sizeof(kernels::LatchWords),
                                    cudaHostAllocMapped | cudaHostAllocPortable);
  auto* w = words_of(mem);
  w->release = 0;
  w->timed_out = 0;
  auto stream = cuda::make_stream(0);
  const auto t0 = std::chrono::steady_clock::now();
  kernels::launch_latch(w, 50'000'000ull, stream.get());  // 50 ms
  P2P_CHECK(cudaStreamSynchronize(stream.get()));
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(w->timed_out, 1u);
  EXPECT_GE(waited, std::chrono::milliseconds(40));
}

}  // namespace
