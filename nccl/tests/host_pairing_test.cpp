#include "nccl/host_pairing.hpp"

#include <gtest/gtest.h>

#include <set>

namespace p2p::nccl {
namespace {

TEST(RoundRobin, NoRoundWithoutTwoHosts) {
  EXPECT_TRUE(round_robin_rounds(0).empty());
  EXPECT_TRUE(round_robin_rounds(1).empty());
}

TEST(RoundRobin, TwoAndFourHostsByHand) {
  EXPECT_EQ(round_robin_rounds(2), (std::vector<std::vector<HostPair>>{{{0, 1}}}));
  const auto r = round_robin_rounds(4);
  ASSERT_EQ(r.size(), 3u);
  for (const auto& round : r) EXPECT_EQ(round.size(), 2u);
  EXPECT_EQ(r[0], (std::vector<HostPair>{{0, 3}, {1, 2}}));
}

TEST(RoundRobin, ThreeHostsGiveEachHostOneBye) {
  const auto r = round_robin_rounds(3);
  ASSERT_EQ(r.size(), 3u);
  std::multiset<int> byes;
  for (const auto& round : r) {
    ASSERT_EQ(round.size(), 1u);
    for (int h = 0; h < 3; ++h) {
      if (round[0].first != h && round[0].second != h) byes.insert(h);
    }
  }
  EXPECT_EQ(byes, (std::multiset<int>{0, 1, 2}));
}

class EveryHostCount : public ::testing::TestWithParam<int> {};

TEST_P(EveryHostCount, EveryPairOnceAndNoHostTwiceInARound) {
  const int n = GetParam();
  const auto rounds = round_robin_rounds(n);
  EXPECT_EQ(static_cast<int>(rounds.size()), n % 2 == 0 ? n - 1 : n);
  std::set<HostPair> seen;
  for (const auto& round : rounds) {
    std::set<int> busy;
    EXPECT_EQ(static_cast<int>(round.size()), n / 2);  // everyone plays but the bye
    for (const auto& [a, b] : round) {
      EXPECT_LT(a, b);
      EXPECT_GE(a, 0);
      EXPECT_LT(b, n);
      EXPECT_TRUE(busy.insert(a).second) << "host " << a << " twice in a round";
      EXPECT_TRUE(busy.insert(b).second) << "host " << b << " twice in a round";
      EXPECT_TRUE(seen.insert({a, b}).second) << a << "-" << b << " met twice";
    }
  }
  EXPECT_EQ(static_cast<int>(seen.size()), n * (n - 1) / 2);
}

INSTANTIATE_TEST_SUITE_P(HostPairing, EveryHostCount, ::testing::Range(2, 18));

}  // namespace
}  // namespace p2p::nccl
