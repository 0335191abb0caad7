// A guest beside its host: the seed story's VM and LXC container (topology fixtures and goldens),
// and the three-way comparison of the seed fixtures (fixtures/seed/README.md).
#include "vm/guest_prospects.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

topo::TopologySnapshot load(const std::string& relative) {
  return topo::load_topology(testing::source(relative));
}

TEST(CliqueProspects, TheSeedVmCanGetP2pBackWithinEachSocketOnly) {
  const auto vm = load("topology/tests/golden/rtxpro6000-vm.json");
  const auto lxc = load("topology/tests/golden/rtxpro6000-lxc.json");
  const Prospects p = clique_prospects(vm, lxc);
  ASSERT_EQ(p.pairs.size(), 28u);
  EXPECT_EQ(p.can, 0);
  EXPECT_EQ(p.maybe, 12) << "NODE needs the host's driver to say so: no facts in a topology diff";
  EXPECT_TRUE(p.pairs[0].maybe);
  EXPECT_FALSE(p.pairs[3].maybe);  // GPU0-GPU4: across sockets
  const std::string text = format_prospects_text(p);
  EXPECT_NE(text.find("0 of 28 pairs can, 12 only the host's driver can tell"), std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU0-GPU4 GPU0-GPU5"), std::string::npos) << text;
}

TEST(CliqueProspects, APastedCaptureOfAllPhbCountsAsAGuest) {
  auto vm = load("import/tests/fixtures/rtxpro6000-vm-topo.txt");
  auto host = load("import/tests/fixtures/rtxpro6000-lxc-topo.txt");
  topo::apply_p2p_status_file(host,
                              testing::source("import/tests/fixtures/rtxpro6000-lxc-p2p-w.txt"));
  const Prospects p = clique_prospects(vm, host);
  ASSERT_EQ(p.pairs.size(), 6u);
  EXPECT_EQ(p.can, 2);
  EXPECT_TRUE(p.pairs[0].can);  // GPU0-GPU1: OK in the host's topo -p2p
  EXPECT_FALSE(p.pairs[1].can);
  EXPECT_NE(p.pairs[1].why.find("CNS"), std::string::npos) << p.pairs[1].why;
}

TEST(CliqueProspects, NothingToSayBetweenTwoHostsOrDifferentGpuCounts) {
  const auto lxc = load("topology/tests/golden/rtxpro6000-lxc.json");
  EXPECT_TRUE(clique_prospects(lxc, lxc).pairs.empty());
  const auto h200 = load("topology/tests/golden/h200-vm.json");
  const Prospects p = clique_prospects(h200, lxc);
  EXPECT_TRUE(p.pairs.empty());
  EXPECT_NE(p.note.find("the VM has 1 GPUs, the host 8"), std::string::npos) << p.note;
}

ThreeWay seed(const std::string& after) {
  auto before = load("import/tests/fixtures/rtxpro6000-vm-topo.txt");
  topo::apply_p2p_status_file(
      before, testing::source("vm/tests/fixtures/seed/rtxpro6000-vm-p2p-r-no-cliques.txt"));
  auto host = load("import/tests/fixtures/rtxpro6000-lxc-topo.txt");
  topo::apply_p2p_status_file(host,
                              testing::source("import/tests/fixtures/rtxpro6000-lxc-p2p-w.txt"));
  return compare_three(before, load(after), host);
}

TEST(VmCompare, TheSeedStoryBeforeAfterAndTheHost) {
  const ThreeWay t = seed("vm/tests/fixtures/seed/rtxpro6000-vm-after-cliques.json");
  EXPECT_EQ(t.p2p_before, 0);
  EXPECT_EQ(t.p2p_after, 2);
  EXPECT_EQ(t.p2p_host, 2);
  EXPECT_EQ(t.rows[0].verdict, "regained");
  EXPECT_EQ(t.rows[0].detail, "clique 0");
  EXPECT_EQ(t.rows[0].after_cliques, "0/0");
  EXPECT_EQ(t.rows[1].verdict, "no P2P on the host");
  EXPECT_EQ(t.exit_code(), 0);
}

TEST(VmCompare, ACliqueTheHostRefusesIsCaught) {
  const ThreeWay t = seed("vm/tests/fixtures/seed/rtxpro6000-vm-one-clique.json");
  EXPECT_TRUE(t.wrong);
  EXPECT_EQ(t.rows[1].verdict, "wrong clique");
  EXPECT_NE(t.rows[1].detail.find("the host refuses"), std::string::npos) << t.rows[1].detail;
  EXPECT_EQ(t.exit_code(), 1);
  const std::string text = format_three_way_text(t, "a", "b", "c");
  EXPECT_NE(text.find("take a GPU out"), std::string::npos) << text;
}

// At the topology ceiling (1,024 GPUs) a comparison is its 523,776 pair rows, made in time linear
// in them: the host's judgement of a pair is looked up, never searched for.
TEST(VmCompare, AtTheCeilingOf1024GpusEveryPairIsARow) {
  const auto guest = testing::many_gpus(1024, true), host = testing::many_gpus(1024, false);
  const ThreeWay t = compare_three(guest, guest, host);
  ASSERT_EQ(t.rows.size(), 1024u * 1023u / 2u);
  EXPECT_EQ(t.p2p_host, 16 * (64 * 63 / 2));
  EXPECT_EQ(t.p2p_after, 0);
  EXPECT_TRUE(t.lost);
  EXPECT_EQ(t.rows.back().verdict, "still lost");
  EXPECT_EQ(t.rows[63].verdict, "no P2P on the host");  // 0-64: across switches
}

TEST(VmCompare, DifferentGpuCountsAreBadInput) {
  const auto one = load("topology/tests/golden/h200-vm.json");
  const auto eight = load("topology/tests/golden/rtxpro6000-lxc.json");
  EXPECT_THROW(compare_three(one, eight, eight), InputError);
}

}  // namespace
}  // namespace p2p::vm
