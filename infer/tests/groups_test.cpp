// Candidate GPU groups from the repository's real-layout 8-GPU topologies: a two-socket host seen
// from a container (NODE/SYS), the same GPUs in a VFIO guest (PHB everywhere), an HGX H100 board
// (NV18 everywhere, two NUMA nodes), and PCIe switches with NVLink bridges.
#include "infer/groups.hpp"

#include <gtest/gtest.h>

#include "topology/discovery/discovery.hpp"

namespace p2p::infer {
namespace {

const std::string kSource = P2P_SOURCE_DIR;

topo::TopologySnapshot fixture(const std::string& relative) {
  return topo::load_topology(kSource + "/" + relative);
}

std::vector<std::vector<int>> gpus_of(const std::vector<GpuGroup>& groups) {
  std::vector<std::vector<int>> out;
  for (const auto& g : groups) out.push_back(g.gpus);
  return out;
}

TEST(CandidateGroups, TwoSocketHostGivesOneGroupPerSocketSplit) {
  const auto t = fixture("topology/tests/fixtures/rtxpro6000-lxc.xml");
  ASSERT_EQ(t.gpus.size(), 8u);
  const auto tp4 = candidate_groups(t, 4, all_gpus(t), 8);
  ASSERT_EQ(tp4.size(), 3u);
  EXPECT_EQ(gpus_of(tp4),
            (std::vector<std::vector<int>>{{0, 1, 2, 3}, {0, 1, 2, 4}, {0, 1, 4, 5}}));
  EXPECT_EQ(tp4[0].signature, "NODE x6");
  EXPECT_EQ(tp4[0].worst_path, "NODE");
  EXPECT_EQ(tp4[0].description, "one NUMA node (0), worst path NODE");
  EXPECT_EQ(tp4[1].signature, "NODE x3 + SYS x3");
  EXPECT_EQ(tp4[2].signature, "NODE x2 + SYS x4");
  EXPECT_EQ(tp4[2].description, "2 NUMA nodes (0,1), worst path SYS");
  // Every one of the C(8,4) = 70 groups is stood for by exactly one representative.
  EXPECT_EQ(tp4[0].alike + tp4[1].alike + tp4[2].alike, 70);
  EXPECT_EQ(tp4[0].alike, 2);  // 0-3 and 4-7

  const auto tp2 = candidate_groups(t, 2, all_gpus(t), 8);
  EXPECT_EQ(gpus_of(tp2), (std::vector<std::vector<int>>{{0, 1}, {0, 4}}));
  EXPECT_EQ(tp2[0].alike, 12);
  EXPECT_EQ(tp2[1].alike, 16);
  const auto tp8 = candidate_groups(t, 8, all_gpus(t), 8);
  ASSERT_EQ(tp8.size(), 1u);
  EXPECT_EQ(tp8[0].signature, "NODE x12 + SYS x16");
}

TEST(CandidateGroups, AGuestWithEveryPairPhbHasOneGroupPerSize) {
  const auto t = fixture("topology/tests/fixtures/rtxpro6000-vm.xml");
  const auto tp4 = candidate_groups(t, 4, all_gpus(t), 8);
  ASSERT_EQ(tp4.size(), 1u);
  EXPECT_EQ(tp4[0].gpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(tp4[0].signature, "PHB x6");
  EXPECT_EQ(tp4[0].alike, 70);
}

TEST(CandidateGroups, NvSwitchBoardIsToldApartOnlyBySocket) {
  const auto t = fixture("import/tests/fixtures/hgx-h100-nics-topo.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  const auto tp4 = candidate_groups(t, 4, all_gpus(t), 8);
  ASSERT_EQ(tp4.size(), 2u);
  EXPECT_EQ(tp4[0].gpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(tp4[0].signature, "NV18 x6");
  EXPECT_EQ(tp4[0].numa_nodes, (std::vector<int>{0}));
  EXPECT_EQ(tp4[1].gpus, (std::vector<int>{0, 1, 2, 4}));
  EXPECT_EQ(tp4[1].numa_nodes, (std::vector<int>{0, 1}));
  EXPECT_EQ(tp4[0].alike + tp4[1].alike, 70);
}

TEST(CandidateGroups, NvLinkEverywhereOnNumaNodesThreeAndOne) {
  const auto t = fixture("import/tests/fixtures/dgx-a100-nv12-topo.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  const auto tp4 = candidate_groups(t, 4, all_gpus(t), 8);
  ASSERT_EQ(tp4.size(), 2u);
  EXPECT_EQ(tp4[0].signature, "NV12 x6");
  EXPECT_EQ(tp4[0].numa_nodes, (std::vector<int>{3}));
  EXPECT_EQ(tp4[0].description, "one NUMA node (3), worst path NV12");
  EXPECT_EQ(tp4[1].numa_nodes, (std::vector<int>{1, 3}));
  const auto tp8 = candidate_groups(t, 8, all_gpus(t), 8);
  ASSERT_EQ(tp8.size(), 1u);
  EXPECT_EQ(tp8[0].signature, "NV12 x28");
}

TEST(CandidateGroups, NvLinkBridgesBeatSwitchesAndTheCapKeepsTheWorst) {
  const auto t = fixture("topology/tests/fixtures/pcie-switch.xml");
  const auto tp2 = candidate_groups(t, 2, all_gpus(t), 8);
  ASSERT_EQ(tp2.size(), 3u);
  EXPECT_EQ(tp2[0].signature, "NV12 x1");
  EXPECT_EQ(tp2[1].signature, "PXB x1");
  EXPECT_EQ(tp2[2].signature, "PHB x1");
  const auto capped = candidate_groups(t, 2, all_gpus(t), 2);
  EXPECT_EQ(gpus_of(capped), (std::vector<std::vector<int>>{{0, 1}, {0, 4}}));
  EXPECT_EQ(candidate_groups(t, 2, all_gpus(t), 1).at(0).signature, "NV12 x1");
}

TEST(CandidateGroups, OnlyEligibleGpusAndNoneWhenTooFew) {
  const auto t = fixture("topology/tests/fixtures/rtxpro6000-lxc.xml");
  const auto within = candidate_groups(t, 2, {4, 5, 6}, 8);
  ASSERT_EQ(within.size(), 1u);
  EXPECT_EQ(within[0].gpus, (std::vector<int>{4, 5}));
  EXPECT_TRUE(candidate_groups(t, 4, {0, 1, 2}, 8).empty());
  const auto planned = plan_groups({2, 8}, t, {0, 1, 2, 3}, 8);
  ASSERT_EQ(planned.size(), 2u);
  EXPECT_EQ(planned[0].groups.size(), 1u);
  EXPECT_TRUE(planned[1].groups.empty());
  EXPECT_EQ(planned[1].note, "needs 8 GPUs, 4 usable");
}

// An nvidia-smi topo -m capture of n GPUs in switches of 16 (PIX within one, SYS across).
std::string switches_of_sixteen(std::size_t n) {
  std::string out = "\t";
  for (std::size_t c = 0; c < n; ++c) out += "GPU" + std::to_string(c) + "\t";
  out += "CPU Affinity\tNUMA Affinity\n";
  for (std::size_t r = 0; r < n; ++r) {
    out += "GPU" + std::to_string(r);
    for (std::size_t c = 0; c < n; ++c)
      out += r == c ? "\t X " : (r / 16 == c / 16 ? "\tPIX" : "\tSYS");
    out += "\t0-15\t0\n";
  }
  return out;
}

// A large host's groups are bounded by the pairs looked at, not only by subsets: at TP 128 a
// subset has 8,128 pairs, and 200,000 subsets of them took 77 s. 20 million pair looks are the
// first 2,460 subsets, all of which the representatives stand for.
TEST(CandidateGroups, TwoHundredFiftySixGpusAtTp128StopAtThePairBound) {
  const auto t = topo::load_topology_text(switches_of_sixteen(256), "256.txt");
  const auto tp128 = candidate_groups(t, 128, all_gpus(t), 8);
  ASSERT_FALSE(tp128.empty());
  std::vector<int> first(128);
  for (int i = 0; i < 128; ++i) first[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(tp128[0].gpus, first);
  EXPECT_EQ(tp128[0].signature, "PIX x960 + SYS x7168");
  int alike = 0;
  for (const auto& g : tp128) alike += g.alike;
  EXPECT_EQ(alike, 20000000 / (128 * 127 / 2));
  // The listing says the groups were bounded; where every subset was looked at it says nothing.
  const auto planned = plan_groups({128}, t, all_gpus(t), 8);
  EXPECT_EQ(planned.at(0).note,
            "only the first 2460 groups of 128 in GPU order were looked at: a bound on the work");
  EXPECT_EQ(plan_groups({2}, t, all_gpus(t), 8).at(0).note, "");

  // At TP 8 the subset bound comes first, and the best group is within one switch.
  const auto tp8 = candidate_groups(t, 8, all_gpus(t), 8);
  ASSERT_FALSE(tp8.empty());
  EXPECT_EQ(tp8[0].signature, "PIX x28");
  alike = 0;
  for (const auto& g : tp8) alike += g.alike;
  EXPECT_EQ(alike, 200000);
}

TEST(CandidateGroups, LogicalGroupsShareTheDevice) {
  const auto g = logical_groups({2, 4, 8}, 4, {0});
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[1].groups.at(0).gpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(g[1].groups.at(0).signature, "logical");
  EXPECT_TRUE(g[2].groups.empty());
  EXPECT_NE(g[2].note.find("--logical-gpus is 4"), std::string::npos);
}

TEST(FormatGpuList, FoldsRunsOfThree) {
  EXPECT_EQ(format_gpu_list({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(format_gpu_list({5, 4, 1, 0}), "0,1,4,5");
  EXPECT_EQ(format_gpu_list({0, 1, 2, 6}), "0-2,6");
  EXPECT_EQ(format_gpu_list({3}), "3");
  EXPECT_EQ(format_gpu_list({}), "");
  EXPECT_EQ(format_id_list({3, 1, 2}), "3,1,2");  // as given, never folded
}

}  // namespace
}  // namespace p2p::infer
