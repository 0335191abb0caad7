#include "topology/nvlink.hpp"

#include <gtest/gtest.h>

namespace p2p::topo {
namespace {

NvlinkBandwidth empty(std::size_t n) {
  NvlinkBandwidth bw;
  bw.gpu_mbps.assign(n, std::vector<std::uint64_t>(n, 0));
  bw.switch_mbps.assign(n, {});
  for (std::size_t i = 0; i < n; ++i) bw.gpu_mbps[i][i] = 1000000;  // hwloc's artificial diagonal
  return bw;
}

TEST(NvlinkCounts, DirectBridgesAt25GBPerLink) {
  auto bw = empty(4);
  bw.gpu_mbps[0][1] = bw.gpu_mbps[1][0] = 12 * 25000;  // A100 PCIe with three NVLink bridges
  bw.gpu_mbps[2][3] = bw.gpu_mbps[3][2] = 4 * 25000;
  const auto c = nvlink_counts_from_bandwidth(bw);
  EXPECT_EQ(c[0][1], 12);
  EXPECT_EQ(c[1][0], 12);
  EXPECT_EQ(c[2][3], 4);
  EXPECT_EQ(c[0][2], 0);
  EXPECT_EQ(c[0][0], 0);  // the diagonal is never a link count
}

TEST(NvlinkCounts, NvlinkOneAt20GBPerLink) {
  auto bw = empty(2);
  bw.gpu_mbps[0][1] = bw.gpu_mbps[1][0] = 2 * 20000;  // P100: 40000 is not a multiple of 25000
  EXPECT_EQ(nvlink_counts_from_bandwidth(bw)[0][1], 2);
}

TEST(NvlinkCounts, NvswitchFabricGivesEveryPairTheSmallerLinkCount) {
  auto bw = empty(3);
  for (std::size_t g = 0; g < 3; ++g)
    bw.switch_mbps[g] = {5 * 25000, 4 * 25000, 4 * 25000, 5 * 25000};
  bw.switch_mbps[2] = {5 * 25000, 4 * 25000, 0, 0};  // a GPU with only 9 links trained
  const auto c = nvlink_counts_from_bandwidth(bw);
  EXPECT_EQ(c[0][1], 18);
  EXPECT_EQ(c[0][2], 9);
  EXPECT_EQ(c[2][1], 9);
}

TEST(NvlinkCounts, NvlinkFiveTotalsAbove18x25GBMean50GBLinks) {
  auto bw = empty(2);
  for (std::size_t g = 0; g < 2; ++g)
    bw.switch_mbps[g] = {9 * 50000, 9 * 50000};  // B200: 18 links of 50 GB/s
  EXPECT_EQ(nvlink_counts_from_bandwidth(bw)[0][1], 18);
}

}  // namespace
}  // namespace p2p::topo
