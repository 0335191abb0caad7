#include "bench/link_ceiling.hpp"

#include <gtest/gtest.h>

namespace {

using namespace p2p::bench;

TEST(LinkCeiling, PcieGenerationsUseTheirLineCoding) {
  // Gen1/2: 8b/10b.
  EXPECT_DOUBLE_EQ(*pcie_gbps_per_direction(1, 16), 2.5 * 16 * 0.8 / 8);  // 4.0
  EXPECT_DOUBLE_EQ(*pcie_gbps_per_direction(2, 8), 4.0);
  // Gen3-5: 128b/130b.
  EXPECT_NEAR(*pcie_gbps_per_direction(3, 16), 15.754, 0.001);
  EXPECT_NEAR(*pcie_gbps_per_direction(4, 16), 31.508, 0.001);
  EXPECT_NEAR(*pcie_gbps_per_direction(5, 16), 63.015, 0.001);  // the H200's link
  // Gen6: PAM4, FLIT mode.
  EXPECT_NEAR(*pcie_gbps_per_direction(6, 16), 121.0, 0.001);
  using p2p::topo::LineCoding;
  using p2p::topo::pcie_generation;
  EXPECT_EQ(pcie_generation(6)->coding, LineCoding::kPam4Flit);
  EXPECT_EQ(pcie_generation(3)->coding, LineCoding::k128b130b);
  EXPECT_EQ(pcie_generation(2)->coding, LineCoding::k8b10b);
}

TEST(LinkCeiling, WidthScalesLinearly) {
  EXPECT_DOUBLE_EQ(*pcie_gbps_per_direction(4, 8) * 2, *pcie_gbps_per_direction(4, 16));
  EXPECT_DOUBLE_EQ(*pcie_gbps_per_direction(5, 1) * 4, *pcie_gbps_per_direction(5, 4));
}

TEST(LinkCeiling, UnknownGenerationOrWidthHasNoCeiling) {
  EXPECT_FALSE(pcie_gbps_per_direction(0, 16));
  EXPECT_FALSE(pcie_gbps_per_direction(7, 16));
  EXPECT_FALSE(pcie_gbps_per_direction(5, 3));
  EXPECT_FALSE(pcie_gbps_per_direction(p2p::topo::PcieLink{5, std::nullopt}));
  EXPECT_NEAR(*pcie_gbps_per_direction(p2p::topo::PcieLink{5, 16}), 63.015, 0.001);
}

TEST(LinkCeiling, DescribesALink) {
  EXPECT_EQ(describe_pcie_link({5, 16}), "PCIe gen5 x16");
  EXPECT_EQ(describe_pcie_link({std::nullopt, 16}), "");
}

TEST(LinkCeiling, NvlinkPerLinkByGeneration) {
  EXPECT_EQ(nvlink_generation(6, 0), 1);
  EXPECT_EQ(nvlink_generation(7, 0), 2);
  EXPECT_EQ(nvlink_generation(8, 0), 3);
  EXPECT_EQ(nvlink_generation(9, 0), 4);
  EXPECT_EQ(nvlink_generation(10, 0), 5);
  EXPECT_FALSE(nvlink_generation(8, 9));                   // Ada: no NVLink
  EXPECT_FALSE(nvlink_generation(12, 0));                  // RTX PRO 6000 Blackwell
  EXPECT_DOUBLE_EQ(*nvlink_gbps_per_link(4) * 18, 450.0);  // H100/H200 SXM per direction
  EXPECT_DOUBLE_EQ(*nvlink_gbps_per_link(5) * 18, 900.0);  // B200
  EXPECT_DOUBLE_EQ(*nvlink_gbps_per_link(3) * 12, 300.0);  // A100
  EXPECT_DOUBLE_EQ(*nvlink_gbps_per_link(1), 20.0);
  EXPECT_FALSE(nvlink_gbps_per_link(6));
}

}  // namespace
