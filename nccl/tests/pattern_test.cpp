#include "nccl/pattern.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace p2p::nccl {
namespace {

using Buffers = std::vector<std::vector<int>>;  // [rank][element]

Buffers inputs(int n, std::uint64_t elements) {
  Buffers in(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    for (std::uint64_t k = 0; k < elements; ++k) in[r].push_back(pattern::input_value(r, k, n));
  }
  return in;
}

// What each collective does, written from its definition, independent of expected_value().
Buffers host_reference(Collective c, const Buffers& in, std::uint64_t count, int root, int src,
                       int dst) {
  const int n = static_cast<int>(in.size());
  Buffers out(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    switch (c) {
      case Collective::kAllReduce:
        for (std::uint64_t k = 0; k < count; ++k) {
          int s = 0;
          for (int j = 0; j < n; ++j) s += in[j][k];
          out[r].push_back(s);
        }
        break;
      case Collective::kAllGather:
        for (int j = 0; j < n; ++j)
          out[r].insert(out[r].end(), in[j].begin(), in[j].begin() + count);
        break;
      case Collective::kReduceScatter:
        for (std::uint64_t k = 0; k < count; ++k) {
          int s = 0;
          for (int j = 0; j < n; ++j) s += in[j][r * count + k];
          out[r].push_back(s);
        }
        break;
      case Collective::kBroadcast: out[r].assign(in[root].begin(), in[root].begin() + count); break;
      case Collective::kAllToAll:
        for (int j = 0; j < n; ++j) {
          out[r].insert(out[r].end(), in[j].begin() + r * count, in[j].begin() + (r + 1) * count);
        }
        break;
      case Collective::kSendRecvRing:
        out[r].assign(in[(r - 1 + n) % n].begin(), in[(r - 1 + n) % n].begin() + count);
        break;
      case Collective::kSendRecvPair:
        if (r == dst) out[r].assign(in[src].begin(), in[src].begin() + count);
        break;
    }
  }
  return out;
}

class PatternAgainstHostReference : public ::testing::TestWithParam<int> {};

TEST_P(PatternAgainstHostReference, EveryCollectiveEveryRank) {
  const int n = GetParam();
  const std::uint64_t count = 37;  // odd, so slice boundaries are not multiples of anything
  const Buffers in = inputs(n, count * n);
  for (Collective c : all_collectives()) {
    const int root = n - 1;
    const int src = n - 1;
    const int dst = 0;
    const Buffers want = host_reference(c, in, count, root, src, dst);
    for (int r = 0; r < n; ++r) {
      pattern::Expectation e;
      e.collective = c;
      e.nranks = n;
      e.rank = r;
      e.count = count;
      e.root = root;
      e.peer = src;
      for (std::size_t k = 0; k < want[r].size(); ++k) {
        ASSERT_EQ(pattern::expected_value(e, k), want[r][k])
            << to_string(c) << " n=" << n << " rank " << r << " k " << k;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, PatternAgainstHostReference, ::testing::Values(1, 2, 3, 4, 8));

TEST(Pattern, EverySumIsAnIntegerBfloat16AndFloat16HoldExactly) {
  // bfloat16 has an 8-bit significand: every integer up to 256 is exact, 257 is not.
  for (int n : {1, 2, 3, 5, 8, 16, 72, 128, 255, 256}) {
    int worst = 0;
    for (int r = 0; r < n; ++r) {
      for (std::uint64_t k = 0; k < 1000; ++k) {
        const int v = pattern::input_value(r, k, n);
        ASSERT_GE(v, 1);
        ASSERT_LE(v, pattern::value_range(n));
      }
    }
    worst = n * pattern::value_range(n);
    EXPECT_LE(worst, pattern::kLargestExactSum) << n << " ranks";
  }
}

TEST(Pattern, NeighboursDifferSoShiftedSlicesAreCaught) {
  for (int n : {1, 2, 8}) {
    for (std::uint64_t k = 0; k < 100; ++k) {
      EXPECT_NE(pattern::input_value(0, k, n), pattern::input_value(0, k + 1, n));
    }
  }
  EXPECT_NE(pattern::input_value(0, 5, 2), pattern::input_value(1, 5, 2));
  EXPECT_LT(pattern::kSentinel, 1);  // never a valid value
}

}  // namespace
}  // namespace p2p::nccl
