#include "kernels/pattern.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "common/cuda_resources.hpp"
#include "kernels/tests/gpu_available.hpp"

namespace {

using namespace p2p;

class PatternTest : public ::testing::Test {
 protected:
  void SetUp() override {
    P2P_REQUIRE_GPU();
    counter_ = cuda::make_device_buffer(0, sizeof(unsigned long long));
  }
  std::uint64_t count(const void* buffer, std::size_t bytes, std::uint32_t seed) {
    auto* c = static_cast<unsigned long long*>(counter_.get());
    P2P_CHECK(cudaMemset(c, 0, sizeof(*c)));
    kernels::launch_count_mismatches(buffer, bytes, seed, c, nullptr);
    unsigned long long host = 0;
    P2P_CHECK(cudaMemcpy(&host, c, sizeof(host), cudaMemcpyDeviceToHost));
    return host;
  }
  cuda::DevicePtr counter_;
};

TEST(PatternWord, DistinctWordsWithinASeedAndDifferentAcrossSeeds) {
  std::set<std::uint32_t> seen;
  for (std::uint64_t i = 0; i < 100000; ++i) seen.insert(kernels::pattern_word(7u, i));
  EXPECT_EQ(seen.size(), 100000u);
  int same = 0;
  for (std::uint64_t i = 0; i < 1000; ++i)
    same += kernels::pattern_word(7u, i) == kernels::pattern_word(8u, i);
  EXPECT_LT(same, 3);
}

TEST_F(PatternTest, GpuFillMatchesTheHostDefinitionForEveryWord) {
  const std::size_t bytes = 4096 + 12;
  auto buf = cuda::make_device_buffer(0, bytes);
  kernels::launch_fill_pattern(buf.get(), bytes, 0xC0FFEEu, nullptr);
  std::vector<std::uint32_t> host(bytes / 4);
  P2P_CHECK(cudaMemcpy(host.data(), buf.get(), bytes, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < host.size(); ++i) {
    ASSERT_EQ(host[i], kernels::pattern_word(0xC0FFEEu, i)) << "word " << i;
  }
  EXPECT_EQ(count(buf.get(), bytes, 0xC0FFEEu), 0u);
  EXPECT_EQ(count(buf.get(), bytes, 0xC0FFEFu), bytes / 4)
      << "another seed must mismatch everywhere";
}

// Every single word, vector body and tail alike, is checked: corrupting any one of them is
// counted exactly once. Sizes cover tails of 0, 1, 2 and 3 words.
TEST_F(PatternTest, ASingleBadWordIsFoundWhereverItIs) {
  for (std::size_t bytes : {4ul, 8ul, 12ul, 16ul, 48ul, 52ul, 56ul, 60ul, 1028ul}) {
    auto buf = cuda::make_device_buffer(0, bytes);
    for (std::size_t word = 0; word < bytes / 4; ++word) {
      kernels::launch_fill_pattern(buf.get(), bytes, 99u, nullptr);
      auto* p = static_cast<std::uint32_t*>(buf.get()) + word;
      std::uint32_t v = 0;
      P2P_CHECK(cudaMemcpy(&v, p, 4, cudaMemcpyDeviceToHost));
      v ^= 0x00010000u;  // a single flipped bit
      P2P_CHECK(cudaMemcpy(p, &v, 4, cudaMemcpyHostToDevice));
      ASSERT_EQ(count(buf.get(), bytes, 99u), 1u) << "word " << word << " of " << bytes << " bytes";
    }
  }
}

TEST_F(PatternTest, FlippedWordsAreCountedExactlyInALargeBuffer) {
  const std::size_t bytes = (64ul << 20) + 8;  // tail of two words
  auto buf = cuda::make_device_buffer(0, bytes);
  for (std::uint64_t flips : {1ull, 2ull, 3ull, 1000ull, 123457ull}) {
    kernels::launch_fill_pattern(buf.get(), bytes, 5u, nullptr);
    EXPECT_EQ(kernels::launch_flip_words(buf.get(), bytes, flips, nullptr), flips);
    EXPECT_EQ(count(buf.get(), bytes, 5u), flips);
  }
  // The last word (in the tail) is among the flipped ones.
  kernels::launch_fill_pattern(buf.get(), bytes, 5u, nullptr);
  kernels::launch_flip_words(buf.get(), bytes, 2, nullptr);
  std::uint32_t last = 0;
  P2P_CHECK(
      cudaMemcpy(&last, static_cast<char*>(buf.get()) + bytes - 4, 4, cudaMemcpyDeviceToHost));
  EXPECT_EQ(last, ~kernels::pattern_word(5u, bytes / 4 - 1));
}

TEST_F(PatternTest, FlippingMoreWordsThanExistInvertsAll) {
  auto buf = cuda::make_device_buffer(0, 40);
  kernels::launch_fill_pattern(buf.get(), 40, 1u, nullptr);
  EXPECT_EQ(kernels::launch_flip_words(buf.get(), 40, 1000, nullptr), 10u);
  EXPECT_EQ(count(buf.get(), 40, 1u), 10u);
}

}  // namespace
