#include "topology/diff.hpp"

#include <gtest/gtest.h>

#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

TEST(PairGpus, ByBusIdWhenBothSidesHaveTheSameGpus) {
  auto a = testing::per_root_complex(4);
  auto b = a;
  std::swap(b.gpus[0], b.gpus[3]);  // a hand-edited snapshot need not be sorted
  const auto p = pair_gpus(a, b);
  EXPECT_EQ(p.by, "pci_bus_id");
  EXPECT_EQ(p.other, (std::vector<std::size_t>{3, 1, 2, 0}));
}

TEST(PairGpus, ByIndexWhenBusIdsDifferAndNotAtAllWhenCountsDiffer) {
  EXPECT_EQ(pair_gpus(testing::flat_phb(8), testing::per_root_complex(8)).by, "index");
  EXPECT_EQ(pair_gpus(testing::flat_phb(8), testing::per_root_complex(4)).by, "none");
}

TEST(DiffTopologies, VmAgainstHostListsEveryPairAndTheCounts) {
  const auto d = diff_topologies(testing::flat_phb(8), testing::per_root_complex(8));
  EXPECT_FALSE(d.same());
  EXPECT_EQ(d.pairing, "index");
  ASSERT_EQ(d.changed.size(), 28u);
  EXPECT_EQ(d.changed[0].gpu_a, 0u);
  EXPECT_EQ(d.changed[0].gpu_b, 1u);
  EXPECT_EQ(d.changed[0].before, "PHB");
  EXPECT_EQ(d.changed[0].after, "NODE");
  EXPECT_EQ(d.counts_before, (ClassCounts{{"PHB", 28}}));
  EXPECT_EQ(d.counts_after, (ClassCounts{{"NODE", 12}, {"SYS", 16}}));
  ASSERT_EQ(d.matched_bus_ids.size(), 8u);
  EXPECT_EQ(d.matched_bus_ids[7],
            std::make_pair(std::string("0000:08:00.0"), std::string("0000:71:00.0")));
}

TEST(DiffTopologies, IdenticalIsSame) {
  const auto d = diff_topologies(testing::per_root_complex(8), testing::per_root_complex(8));
  EXPECT_TRUE(d.same());
  EXPECT_EQ(d.pairing, "pci_bus_id");
  EXPECT_TRUE(d.changed.empty());
}

TEST(DiffTopologies, GpuCountChangeIsADifferenceWithoutPairs) {
  const auto d = diff_topologies(testing::per_root_complex(8), testing::per_root_complex(4));
  EXPECT_FALSE(d.same());
  EXPECT_TRUE(d.changed.empty());
  EXPECT_EQ(d.counts_after, (ClassCounts{{"NODE", 6}}));
}

TEST(DiffTopologies, NvlinkLossShowsEvenWithTheSamePcieClass) {
  auto a = testing::per_root_complex(2);
  auto b = a;
  a.nvlink_count[0][1] = a.nvlink_count[1][0] = 4;
  const auto d = diff_topologies(a, b);
  ASSERT_EQ(d.changed.size(), 1u);
  EXPECT_EQ(d.changed[0].before, "NV4");
  EXPECT_EQ(d.changed[0].after, "NODE");
  EXPECT_EQ(d.changed[0].pcie_before, "NODE");
}

TEST(OrderedLabels, BestFirst) {
  EXPECT_EQ(ordered_labels({{"SYS", 1}, {"NV4", 1}, {"PIX", 1}}, {{"NV12", 2}, {"NODE", 3}}),
            (std::vector<std::string>{"NV12", "NV4", "PIX", "NODE", "SYS"}));
}

TEST(FormatDiffText, NamesThePairingAndEveryChange) {
  const auto text = format_diff_text(
      diff_topologies(testing::flat_phb(8), testing::per_root_complex(8)), "vm.xml", "lxc.xml");
  EXPECT_NE(text.find("A: vm.xml (8 GPUs)"), std::string::npos) << text;
  EXPECT_NE(text.find("GPUs matched by index"), std::string::npos) << text;
  EXPECT_NE(text.find("  GPU2  A 0000:03:00.0  B 0000:21:00.0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("28 of 28 pairs changed class"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU3-GPU4     PHB -> SYS"), std::string::npos) << text;
  EXPECT_NE(text.find("topologies differ"), std::string::npos) << text;
}

}  // namespace
}  // namespace p2p::topo
