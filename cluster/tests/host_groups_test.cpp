#include "cluster/host_groups.hpp"

#include <gtest/gtest.h>

namespace p2p::cluster {
namespace {

TEST(HostGroups, OneRankPerHostLeadsItself) {
  EXPECT_EQ(host_leaders({"a", "b", "c"}), (std::vector<int>{0, 1, 2}));
}

TEST(HostGroups, RanksOfOneHostFollowItsLowestRank) {
  // Launchers place tasks by block (a a b b) or cyclically (a b a b).
  EXPECT_EQ(host_leaders({"a", "a", "b", "b"}), (std::vector<int>{0, 0, 2, 2}));
  EXPECT_EQ(host_leaders({"a", "b", "a", "b"}), (std::vector<int>{0, 1, 0, 1}));
}

TEST(HostGroups, ARankWithoutANameIsAHostOfItsOwn) {
  EXPECT_EQ(host_leaders({"", "", "a"}), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(host_leaders({}).empty());
}

}  // namespace
}  // namespace p2p::cluster
