#include "kernels/copy.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/cuda_resources.hpp"
#include "kernels/pattern.hpp"
#include "kernels/tests/gpu_available.hpp"

namespace {

using namespace p2p;

constexpr std::size_t kGuardBytes = 64;

std::uint64_t mismatches(const void* buffer, std::size_t bytes, std::uint32_t seed) {
  auto counter = cuda::make_device_buffer(0, sizeof(unsigned long long));
  auto* c = static_cast<unsigned long long*>(counter.get());
  P2P_CHECK(cudaMemset(c, 0, sizeof(*c)));
  kernels::launch_count_mismatches(buffer, bytes, seed, c, nullptr);
  unsigned long long host = 0;
  P2P_CHECK(cudaMemcpy(&host, c, sizeof(host), cudaMemcpyDeviceToHost));
  return host;
}

// Copies `bytes` between fresh buffers and checks every word arrived and nothing past the end
// was written.
void copy_and_check(std::size_t bytes, const kernels::CopyShape& wanted) {
  auto src = cuda::make_device_buffer(0, bytes + kGuardBytes);
  auto dst = cuda::make_device_buffer(0, bytes + kGuardBytes);
  kernels::launch_fill_pattern(src.get(), bytes, 0x1234u, nullptr);
  P2P_CHECK(cudaMemset(dst.get(), 0xA5, bytes + kGuardBytes));
  const auto shape = kernels::resolve_copy_shape(0, wanted);
  kernels::launch_copy(dst.get(), src.get(), bytes, shape, nullptr);
  P2P_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(mismatches(dst.get(), bytes, 0x1234u), 0u)
      << bytes << " bytes, unroll " << wanted.unroll;
  std::vector<unsigned char> guard(kGuardBytes);
  P2P_CHECK(cudaMemcpy(guard.data(), static_cast<char*>(dst.get()) + bytes, kGuardBytes,
                       cudaMemcpyDeviceToHost));
  for (unsigned char b : guard) ASSERT_EQ(b, 0xA5) << "copy wrote past " << bytes << " bytes";
}

TEST(CopyKernel, CopiesEveryWordIncludingTheTailAndNothingMore) {
  P2P_REQUIRE_GPU();
  for (std::size_t bytes :
       {4ul, 12ul, 16ul, 20ul, 28ul, 4096ul, 4100ul, (1ul << 20) + 12, (64ul << 20) + 4}) {
    copy_and_check(bytes, {});
  }
}

TEST(CopyKernel, EveryUnrollAndBlockSizeCopiesCorrectly) {
  P2P_REQUIRE_GPU();
  for (int unroll : {1, 2, 4, 8, 16}) {
    for (int threads : {64, 128, 512, 1024}) {
      kernels::CopyShape shape;
      shape.unroll = unroll;
      shape.threads_per_block = threads;
      copy_and_check((3ul << 20) + 8, shape);
    }
  }
}

TEST(CopyKernel, FillsEverySmWhenAskedForTheDefaultGrid) {
  P2P_REQUIRE_GPU();
  int sms = 0;
  P2P_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const auto shape = kernels::resolve_copy_shape(0, {});
  EXPECT_GE(shape.blocks, sms);
  EXPECT_EQ(shape.blocks % sms, 0);
}

TEST(CopyKernel, ReadsAndWritesMappedHostMemory) {
  P2P_REQUIRE_GPU();
  const std::size_t bytes = (8ul << 20) + 12;
  auto host = cuda::make_pinned_host(bytes, cudaHostAllocMapped | cudaHostAllocPortable);
  auto dev = cuda::make_device_buffer(0, bytes);
  const auto shape = kernels::resolve_copy_shape(0, {});
  kernels::launch_fill_pattern(host.get(), bytes, 77u, nullptr);  // GPU writes host memory
  kernels::launch_copy(dev.get(), host.get(), bytes, shape, nullptr);
  P2P_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(mismatches(dev.get(), bytes, 77u), 0u);
  // And the CPU sees what the GPU wrote back into host memory.
  std::memset(host.get(), 0, bytes);
  kernels::launch_copy(host.get(), dev.get(), bytes, shape, nullptr);
  P2P_CHECK(cudaDeviceSynchronize());
  const auto* words = static_cast<const std::uint32_t*>(host.get());
  for (std::size_t i = 0; i < bytes / 4; ++i) {
    ASSERT_EQ(words[i], kernels::pattern_word(77u, i)) << "word " << i;
  }
}

TEST(CopyKernel, RejectsSizesThatAreNotWholeWords) {
  P2P_REQUIRE_GPU();
  auto a = cuda::make_device_buffer(0, 64);
  auto b = cuda::make_device_buffer(0, 64);
  const auto shape = kernels::resolve_copy_shape(0, {});
  EXPECT_THROW(kernels::launch_copy(a.get(), b.get(), 6, shape, nullptr), std::invalid_argument);
  EXPECT_THROW(kernels::launch_copy(static_cast<char*>(a.get()) + 4, b.get(), 16, shape, nullptr),
               std::invalid_argument);
}

}  // namespace

namespace {

using namespace p2p;

// Both copies of a pair land completely, tails included, whatever the block size and unroll.
TEST(CopyKernel, PairCopiesBothDirectionsCompletely) {
  P2P_REQUIRE_GPU();
  auto counter = cuda::make_device_buffer(0, sizeof(unsigned long long));
  auto count = [&](const void* buf, std::size_t bytes, std::uint32_t seed) {
    auto* c = static_cast<unsigned long long*>(counter.get());
    P2P_CHECK(cudaMemset(c, 0, sizeof(*c)));
    kernels::launch_count_mismatches(buf, bytes, seed, c, nullptr);
    unsigned long long host = 0;
    P2P_CHECK(cudaMemcpy(&host, c, sizeof(host), cudaMemcpyDeviceToHost));
    return host;
  };
  for (std::size_t bytes : {4ul, 52ul, 4096ul, (5ul << 20) + 12}) {
    for (int unroll : {1, 4, 8}) {
      for (int threads : {64, 512, 1024}) {
        kernels::CopyShape wanted;
        wanted.unroll = unroll;
        wanted.threads_per_block = threads;
        const auto shape = kernels::resolve_copy_shape(0, wanted);
        const std::size_t off = (bytes + 255) / 256 * 256;  // second buffer 16-byte aligned
        auto host = cuda::make_pinned_host(2 * off, cudaHostAllocMapped | cudaHostAllocPortable);
        auto dev = cuda::make_device_buffer(0, 2 * off);
        char* h = static_cast<char*>(host.get());
        char* d = static_cast<char*>(dev.get());
        // h[0, bytes) -> d[0, bytes) and d[off, off + bytes) -> h[off, off + bytes), at once.
        kernels::launch_fill_pattern(h, bytes, 1u, nullptr);
        kernels::launch_fill_pattern(d + off, bytes, 2u, nullptr);
        kernels::launch_fill_pattern(d, bytes, 3u, nullptr);
        kernels::launch_fill_pattern(h + off, bytes, 4u, nullptr);
        kernels::launch_copy_pair(d, h, h + off, d + off, bytes, shape, nullptr);
        P2P_CHECK(cudaDeviceSynchronize());
        EXPECT_EQ(count(d, bytes, 1u), 0u)
            << bytes << " B, unroll " << unroll << ", " << threads << " threads";
        EXPECT_EQ(count(h + off, bytes, 2u), 0u)
            << bytes << " B, unroll " << unroll << ", " << threads << " threads";
      }
    }
  }
}

TEST(CopyKernel, BlockSizesMustHoldEvenAndOddWarps) {
  P2P_REQUIRE_GPU();
  kernels::CopyShape wanted;
  wanted.threads_per_block = 96;
  EXPECT_THROW(kernels::resolve_copy_shape(0, wanted), std::invalid_argument);
}

}  // namespace
