#include "topology/pcie_link.hpp"

#include <gtest/gtest.h>

namespace p2p::topo {
namespace {

TEST(HwlocLinkGbps, MatchesWhatHwlocWritesForCommonLinks) {
  // The pci_link_speed values hwloc 2.9 wrote in the H200 capture and for Gen4/Gen3 x16 slots.
  EXPECT_NEAR(hwloc_link_gbps(5, 16), 63.015385, 1e-5);
  EXPECT_NEAR(hwloc_link_gbps(4, 16), 31.507692, 1e-5);
  EXPECT_NEAR(hwloc_link_gbps(3, 16), 15.753846, 1e-5);
  EXPECT_NEAR(hwloc_link_gbps(1, 1), 0.25, 1e-9);
  EXPECT_NEAR(hwloc_link_gbps(6, 16), 121.0, 1e-9);  // 64 GT/s x 242/256 x 16 / 8
}

TEST(LinkFromGbps, DerivesGenAndWidthOnlyWhereOneCombinationFits) {
  const PcieLink gen5 = link_from_gbps(63.015385);
  EXPECT_EQ(gen5.gen, 5);
  EXPECT_EQ(gen5.width, 16);
  EXPECT_DOUBLE_EQ(*gen5.gbps, 63.015);

  const PcieLink ambiguous = link_from_gbps(31.507692);  // Gen4 x16 or Gen5 x8
  EXPECT_FALSE(ambiguous.gen);
  EXPECT_FALSE(ambiguous.width);
  EXPECT_DOUBLE_EQ(*ambiguous.gbps, 31.508);
  ASSERT_EQ(link_candidates(31.507692).size(), 2u);

  EXPECT_EQ(link_candidates(15.753846).size(), 3u);  // Gen3 x16, Gen4 x8, Gen5 x4
}

TEST(LinkFromGbps, ZeroIsUnknown) {
  const PcieLink l = link_from_gbps(0.0);  // hwloc's value for emulated virtio devices
  EXPECT_FALSE(l.gen);
  EXPECT_FALSE(l.width);
  EXPECT_FALSE(l.gbps);
}

TEST(GenFromGts, EachGenerationsRate) {
  EXPECT_EQ(gen_from_gts(2.5), 1);
  EXPECT_EQ(gen_from_gts(5.0), 2);
  EXPECT_EQ(gen_from_gts(8.0), 3);
  EXPECT_EQ(gen_from_gts(16.0), 4);
  EXPECT_EQ(gen_from_gts(32.0), 5);
  EXPECT_EQ(gen_from_gts(64.0), 6);
  EXPECT_FALSE(gen_from_gts(7.0));
  EXPECT_FALSE(gen_from_gts(128.0));  // a generation the table does not have yet
  EXPECT_FALSE(gen_from_gts(0.0));
}

TEST(DescribeLink, SaysWhatIsKnown) {
  EXPECT_EQ(describe_link(make_link(5, 16)), "Gen5 x16");
  EXPECT_EQ(describe_link(link_from_gbps(31.507692)), "31.508 GB/s (Gen4 x16 or Gen5 x8)");
  EXPECT_EQ(describe_link(PcieLink{}), "unknown");
  EXPECT_EQ(describe_link(PcieLink{4, std::nullopt, std::nullopt}), "Gen4 x?");
}

}  // namespace
}  // namespace p2p::topo
