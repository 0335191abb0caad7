#include "topology/classify.hpp"

#include <gtest/gtest.h>

#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

using testing::make_gpu;
using testing::make_snapshot;

// Two leaf switches under one top switch on root port 00:01.0, one more switch on 00:03.0.
TopologySnapshot switch_tree() {
  return make_snapshot({
      make_gpu("0000:05:00.0", "0000:[00-13]",
               {"0000:00:01.0", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0", "0000:04:00.0"}, 0),
      make_gpu("0000:06:00.0", "0000:[00-13]",
               {"0000:00:01.0", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0", "0000:04:01.0"}, 0),
      make_gpu("0000:09:00.0", "0000:[00-13]",
               {"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", "0000:07:00.0", "0000:08:00.0"}, 0),
      make_gpu("0000:12:00.0", "0000:[00-13]", {"0000:00:03.0", "0000:10:00.0", "0000:11:00.0"}, 0),
      make_gpu("0000:13:00.0", "0000:[00-13]", {"0000:00:03.0", "0000:10:00.0", "0000:11:01.0"}, 0),
  });
}

TEST(ClassifyPciePath, SameSwitchIsPixDifferentLeafSwitchesArePxbDifferentRootPortsArePhb) {
  const auto t = switch_tree();
  EXPECT_EQ(classify_pcie_path(t, 0, 1), PathClass::kPix);
  EXPECT_EQ(classify_pcie_path(t, 0, 2), PathClass::kPxb);
  EXPECT_EQ(classify_pcie_path(t, 1, 2), PathClass::kPxb);
  EXPECT_EQ(classify_pcie_path(t, 3, 4), PathClass::kPix);
  EXPECT_EQ(classify_pcie_path(t, 0, 3), PathClass::kPhb);
  EXPECT_EQ(classify_pcie_path(t, 2, 4), PathClass::kPhb);
  EXPECT_EQ(classify_pcie_path(t, 2, 2), PathClass::kSelf);
}

TEST(ClassifyPciePath, IsSymmetric) {
  const auto t = switch_tree();
  for (std::size_t a = 0; a < t.gpus.size(); ++a)
    for (std::size_t b = 0; b < t.gpus.size(); ++b)
      EXPECT_EQ(classify_pcie_path(t, a, b), classify_pcie_path(t, b, a)) << a << "," << b;
}

TEST(ClassifyPciePath, OneGpuDirectlyOnTheLowestBridgeAndOneBelowASwitchPortIsPix) {
  // GPU 0 sits on the bus of bridge B itself, GPU 1 one bridge further down: one bridge between
  // them.
  const auto t =
      make_snapshot({make_gpu("0000:02:00.0", "0000:[00-04]", {"0000:00:01.0", "0000:01:00.0"}, 0),
                     make_gpu("0000:04:00.0", "0000:[00-04]",
                              {"0000:00:01.0", "0000:01:00.0", "0000:02:01.0"}, 0)});
  EXPECT_EQ(classify_pcie_path(t, 0, 1), PathClass::kPix);
}

TEST(ClassifyPciePath, TwoBridgesBelowTheCommonOneIsPxbEvenOnOneSide) {
  const auto t = make_snapshot(
      {make_gpu("0000:02:00.0", "0000:[00-05]", {"0000:00:01.0", "0000:01:00.0"}, 0),
       make_gpu("0000:05:00.0", "0000:[00-05]",
                {"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", "0000:04:00.0"}, 0)});
  EXPECT_EQ(classify_pcie_path(t, 0, 1), PathClass::kPxb);
}

TEST(ClassifyPciePath, GpusDirectlyOnOneHostBridgeArePhb) {
  const auto t = make_snapshot({make_gpu("0000:00:05.0", "0000:[00-00]", {}, 0),
                                make_gpu("0000:00:06.0", "0000:[00-00]", {}, 0)});
  EXPECT_EQ(classify_pcie_path(t, 0, 1), PathClass::kPhb);
}

TEST(ClassifyPciePath, DifferentHostBridgesAreNodeWithinANumaNodeAndSysAcross) {
  const auto t = testing::per_root_complex(8);
  EXPECT_EQ(classify_pcie_path(t, 0, 3), PathClass::kNode);
  EXPECT_EQ(classify_pcie_path(t, 4, 7), PathClass::kNode);
  EXPECT_EQ(classify_pcie_path(t, 0, 4), PathClass::kSys);
  EXPECT_EQ(classify_pcie_path(t, 3, 4), PathClass::kSys);
}

TEST(ClassifyPciePath, SameBridgeIdsUnderDifferentHostBridgesDoNotMakeAPath) {
  // Two root complexes can both have a root port called 00:01.1 in different PCI domains.
  const auto t = make_snapshot({make_gpu("0000:01:00.0", "0000:[00-1f]", {"0000:00:01.1"}, 0),
                                make_gpu("0001:01:00.0", "0001:[00-1f]", {"0000:00:01.1"}, 0)});
  EXPECT_EQ(classify_pcie_path(t, 0, 1), PathClass::kNode);
}

TEST(ClassifyPciePath, UnknownHostBridgeOrNumaNodeReadsAsTheWorseCase) {
  const auto t =
      make_snapshot({make_gpu("0000:01:00.0", "", {}, 0), make_gpu("0000:02:00.0", "", {}, 0),
                     make_gpu("0000:03:00.0", "0000:[00-ff]", {}, -1)});
  EXPECT_EQ(classify_pcie_path(t, 0, 1),
            PathClass::kNode);  // host bridge unknown: not assumed shared
  EXPECT_EQ(classify_pcie_path(t, 0, 2), PathClass::kSys);  // NUMA node unknown on one side
}

TEST(ClassifyPciePath, TwoUnknownNumaNodesAreNotOneNode) {
  // Host bridges without PCI locality (hung on the machine, numa_node -1): nothing says the two
  // root complexes share a socket, so the pair is SYS, not NODE. Under one host bridge the tree
  // alone decides.
  const auto t = make_snapshot({make_gpu("0000:01:00.0", "0000:[00-08]", {"0000:00:02.0"}, -1),
                                make_gpu("0000:82:00.0", "0000:[80-82]", {"0000:80:02.0"}, -1),
                                make_gpu("0000:02:00.0", "0000:[00-08]", {"0000:00:03.0"}, -1)});
  EXPECT_EQ(classify_pcie_path(t, 0, 1), PathClass::kSys);
  EXPECT_EQ(classify_pcie_path(t, 0, 2), PathClass::kPhb);
}

TEST(ClassifySnapshot, FillsTheMatrixAndSizesNvlinkCounts) {
  auto t = switch_tree();
  ASSERT_EQ(t.pcie_matrix.size(), 5u);
  ASSERT_EQ(t.nvlink_count.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(t.pcie_matrix[i][i], PathClass::kSelf);
    ASSERT_EQ(t.nvlink_count[i].size(), 5u);
  }
  EXPECT_EQ(t.pcie_matrix[0][2], PathClass::kPxb);
}

TEST(DisplayMatrix, NvlinkShowsAsNvCountAndHidesThePcieClass) {
  auto t = switch_tree();
  t.nvlink_count[0][1] = t.nvlink_count[1][0] = 12;
  const auto m = display_matrix(t);
  EXPECT_EQ(m[0][1], "NV12");
  EXPECT_EQ(m[1][0], "NV12");
  EXPECT_EQ(m[0][0], "X");
  EXPECT_EQ(m[0][2], "PXB");
  EXPECT_EQ(t.pcie_matrix[0][1], PathClass::kPix);
}

TEST(PathRank, OrdersBestToWorst) {
  EXPECT_LT(path_rank(PathClass::kNvLink), path_rank(PathClass::kPix));
  EXPECT_LT(path_rank(PathClass::kPix), path_rank(PathClass::kPxb));
  EXPECT_LT(path_rank(PathClass::kPxb), path_rank(PathClass::kPhb));
  EXPECT_LT(path_rank(PathClass::kPhb), path_rank(PathClass::kNode));
  EXPECT_LT(path_rank(PathClass::kNode), path_rank(PathClass::kSys));
}

TEST(PathClassStrings, RoundTripAndRejectJunk) {
  for (auto c : {PathClass::kSelf, PathClass::kPix, PathClass::kPxb, PathClass::kPhb,
                 PathClass::kNode, PathClass::kSys})
    EXPECT_EQ(path_class_from_string(to_string(c)), c);
  EXPECT_EQ(path_class_from_string("NV18"), PathClass::kNvLink);
  EXPECT_FALSE(path_class_from_string("NVx"));
  EXPECT_FALSE(path_class_from_string("phb"));
}

}  // namespace
}  // namespace p2p::topo
