#include "nccl/placement.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::nccl {
namespace {

TEST(PlaceRanks, OneRankPerDeviceIsTodaysCliqueWithoutHostIds) {
  const RankPlacement p = place_ranks(4, {0, 1, 2, 3});
  EXPECT_FALSE(p.shares_device);
  EXPECT_EQ(rank_devices(p), (std::vector<int>{0, 1, 2, 3}));
  for (const auto& s : p.ranks) EXPECT_EQ(s.host_id, "") << s.rank;
}

TEST(PlaceRanks, FewerRanksThanDevicesTakeTheFirstDevices) {
  const RankPlacement p = place_ranks(2, {3, 1, 0});
  EXPECT_FALSE(p.shares_device);
  EXPECT_EQ(rank_devices(p), (std::vector<int>{3, 1}));
}

TEST(PlaceRanks, EightRanksOnOneGpuAreEightHosts) {
  const RankPlacement p = place_ranks(8, {0});
  EXPECT_TRUE(p.shares_device);
  ASSERT_EQ(p.ranks.size(), 8u);
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(p.ranks[static_cast<std::size_t>(r)].rank, r);
    EXPECT_EQ(p.ranks[static_cast<std::size_t>(r)].device, 0);
    EXPECT_EQ(p.ranks[static_cast<std::size_t>(r)].host_id, "p2pcheck-host-" + std::to_string(r));
  }
}

TEST(PlaceRanks, RoundRobinKeepsDistinctDevicesOfOneRoundOnOneHost) {
  // 5 ranks on 2 devices: rounds {0,1}, {2,3}, {4}; within a round the devices differ, so NCCL
  // may use P2P/SHM there, and no host id ever holds one device twice.
  const RankPlacement p = place_ranks(5, {1, 0});
  EXPECT_TRUE(p.shares_device);
  EXPECT_EQ(rank_devices(p), (std::vector<int>{1, 0, 1, 0, 1}));
  const std::vector<std::string> hosts = {"p2pcheck-host-0", "p2pcheck-host-0", "p2pcheck-host-1",
                                          "p2pcheck-host-1", "p2pcheck-host-2"};
  for (std::size_t r = 0; r < hosts.size(); ++r) EXPECT_EQ(p.ranks[r].host_id, hosts[r]) << r;
}

TEST(PlaceRanks, NoRanksOrNoDevicesIsAnInputError) {
  EXPECT_THROW(place_ranks(0, {0}), InputError);
  EXPECT_THROW(place_ranks(-1, {0}), InputError);
  EXPECT_THROW(place_ranks(2, {}), InputError);
}

}  // namespace
}  // namespace p2p::nccl
