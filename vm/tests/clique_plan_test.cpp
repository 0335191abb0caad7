// Cliques planned on real host topologies (topology/tests/fixtures: public hwloc captures and a
// published nvidia-smi capture) and on the seed story's host with its doctor facts.
#include "vm/clique_plan.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/json_text.hpp"
#include "vm/plan_report.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

using testing::host;
using testing::topology;

std::vector<std::size_t> all(const HostView& v) { return select_gpus(v, "", nullptr); }

std::vector<std::vector<std::size_t>> members(const CliquePlan& p) {
  std::vector<std::vector<std::size_t>> out;
  for (const auto& c : p.cliques) out.push_back(c.gpus);
  return out;
}

// From the topology alone nothing is planned: the switch pairs are proposed, provisional, with no
// ID and no setting, until the host's evidence proves them.
TEST(CliquePlan, TwoSocketK80HostGetsOneProvisionalGroupPerSocketSwitch) {
  const HostView v = host(topology("k80-two-sockets-hwloc1.xml"));
  const CliquePlan p = make_clique_plan(v, all(v), 0);
  EXPECT_TRUE(p.cliques.empty());
  EXPECT_EQ(p.provisional_groups, (std::vector<std::vector<std::size_t>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(p.provisional().size(), 2u);
  EXPECT_EQ(p.pairs.at(0).level, EvidenceLevel::kPathClass);
  EXPECT_FALSE(p.complete());
  EXPECT_EQ(p.gpus[0].why.at(0), "provisionally with GPU1: PIX, one PCIe switch (PIX)");
  EXPECT_NE(p.gpus[0].why.at(1).find("not with GPU2, GPU3: SYS, across sockets"), std::string::npos)
      << p.gpus[0].why.at(1);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("topology alone"), std::string::npos);
}

TEST(CliquePlan, EightPcieGpusBehindSwitchesOnTwoSocketsFromAPublishedCapture) {
  const HostView v =
      host(testing::source("import/tests/fixtures/topo-8x-pcie-pix-pxb-sys-numa-na.txt"));
  const CliquePlan p = make_clique_plan(v, all(v), 0);
  EXPECT_EQ(p.provisional_groups,
            (std::vector<std::vector<std::size_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(gpu_label(v, 5), "GPU5");  // a capture has no bus ids
}

TEST(CliquePlan, NvlinkJoinsEveryDgx2Gpu) {
  const HostView v = host(topology("dgx2-v100.xml"));
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "0,1,8,15", nullptr), 3);
  ASSERT_EQ(p.cliques.size(), 1u);
  EXPECT_EQ(p.cliques[0].id, 3);
  EXPECT_EQ(p.pairs.at(0).basis, "topology");
  EXPECT_NE(p.pairs.at(0).reason.find("NVLink"), std::string::npos);
}

TEST(CliquePlan, GpusEachOnTheirOwnNumaNodeAreLeftOutWithoutFacts) {
  const HostView v = host(topology("juwels-booster-a100.xml"));
  const CliquePlan p = make_clique_plan(v, all(v), 0);
  EXPECT_TRUE(p.cliques.empty());
  EXPECT_FALSE(p.complete());
  for (const auto& g : p.gpus) EXPECT_FALSE(g.clique);
}

TEST(CliquePlan, TheHostsDriverAndPeerCopyDecideWithFacts) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = host(topology("rtxpro6000-lxc.xml"), &f);
  const CliquePlan p = make_clique_plan(v, all(v), 0);
  EXPECT_EQ(members(p), (std::vector<std::vector<std::size_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  const PairJudgement across = judge_pair(v, 0, 4);
  EXPECT_FALSE(across.p2p);
  EXPECT_EQ(across.basis, "driver");
  EXPECT_EQ(across.reason, "the host's driver refuses P2P: CHIPSET_NOT_SUPPORTED");
  EXPECT_EQ(judge_pair(v, 0, 1).basis, "peer copy");
  const auto& g6 = p.gpus.at(6);
  EXPECT_EQ(g6.facts.at(0), "ACS redirects at 0000:c0:01.1");
  EXPECT_EQ(g6.facts.at(1), "IOMMU group 26 with 0000:c2:00.0 (class 0x020000)");
  ASSERT_EQ(g6.warnings.size(), 1u);
  EXPECT_NE(g6.warnings[0].find("whole groups"), std::string::npos);
}

TEST(CliquePlan, AFailedHostPeerCopyAndASharedIommuGroupKeepAPairApart) {
  doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  for (auto& c : f.peer_copy.pairs)
    if (c.src_bus_id == "0000:21:00.0" && c.dst_bus_id == "0000:01:00.0")
      c.copy_result = doctor::CopyResult::kCorrupt;
  f.vfio.iommu_groups.value.at(3).group = 22;  // 0000:61:00.0 now shares group 22 with 0000:41:00.0
  const HostView v = host(topology("rtxpro6000-lxc.xml"), &f);
  const PairJudgement copy = judge_pair(v, 0, 1);
  EXPECT_FALSE(copy.p2p);
  EXPECT_NE(copy.reason.find("peer copy failed (0000:21:00.0 -> 0000:01:00.0"), std::string::npos)
      << copy.reason;
  const PairJudgement group = judge_pair(v, 2, 3);
  EXPECT_FALSE(group.p2p);
  EXPECT_EQ(group.basis, "iommu group");
  // The two pairs kept apart still leave each GPU a partner on its socket: {0, 2} and {1, 3}.
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "0,1,2,3", nullptr), 0);
  EXPECT_EQ(members(p), (std::vector<std::vector<std::size_t>>{{0, 2}, {1, 3}}));
  EXPECT_TRUE(p.complete());
}

TEST(CliquePlan, IommuFaultsLeaveAGpuOutOfEveryClique) {
  doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  f.kernel.log_lines.value.push_back(
      "AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0042 address=0xfd000000 flags=0x0020] "
      "device=81:00.0");
  const HostView v = host(topology("rtxpro6000-lxc.xml"), &f);
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "4,5,6", nullptr), 0);
  EXPECT_EQ(members(p), (std::vector<std::vector<std::size_t>>{{5, 6}}));
  EXPECT_FALSE(p.gpus.at(0).clique);
  EXPECT_NE(p.gpus.at(0).warnings.back().find("IOMMU refusing its DMA"), std::string::npos);
}

TEST(CliquePlan, ACliqueIdOver15IsBadInput) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = host(topology("rtxpro6000-lxc.xml"), &f);
  EXPECT_NO_THROW(make_clique_plan(v, all(v), 14));
  try {
    make_clique_plan(v, all(v), 15);
    FAIL() << "clique 16 was handed out";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--first-clique 15: the plan needs 2 cliques, up to ID 16, but clique IDs are 0-15");
  }
  EXPECT_THROW(make_clique_plan(v, all(v), 16), InputError);
  EXPECT_THROW(make_clique_plan(v, all(v), -1), InputError);
}

// At the topology ceiling (1,024 GPUs, 523,776 pairs) the plan and its text are made in time
// linear in the pairs: each GPU's relations are grouped without a string built per pair and its
// provisional group looked up, not searched for. (Its JSON, written row by row, is the same as
// the whole plan's: JsonWrittenRowByRowIsTheJsonOfTheWholePlan; 3.6 s in a Release build.)
TEST(CliquePlan, AtTheCeilingOf1024GpusEveryPairIsJudgedOnce) {
  const HostView v = make_host_view(testing::many_gpus(1024, false), nullptr, "");
  const PlanReport r = make_plan_report(v, all(v), 0, std::nullopt, "");
  ASSERT_EQ(r.plan.pairs.size(), 1024u * 1023u / 2u);
  EXPECT_TRUE(r.plan.cliques.empty()) << "the path class alone plans no clique";
  ASSERT_EQ(r.plan.provisional_groups.size(), 16u);
  EXPECT_EQ(r.plan.provisional_groups.back().front(), 960u);
  ASSERT_EQ(r.plan.gpus.at(1000).why.size(), 2u);
  EXPECT_EQ(r.plan.gpus.at(1000).why[0].rfind("not with GPU0, GPU1, ", 0), 0u);
  EXPECT_EQ(r.plan.gpus.at(1000).why[1].rfind("provisionally with GPU960, ", 0), 0u);
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_NE(format_plan_text(r, v).find("GPU1023"), std::string::npos);
}

// The pair rows written one at a time give the text building them all first gave.
TEST(CliquePlan, JsonWrittenRowByRowIsTheJsonOfTheWholePlan) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = host(topology("rtxpro6000-lxc.xml"), &f);
  const PlanReport r = make_plan_report(v, all(v), 0, std::nullopt, "");
  ASSERT_EQ(r.plan.pairs.size(), 28u);
  EXPECT_EQ(plan_json_text(r, v), p2p::json_text(plan_json(r, v)));
}

TEST(SelectGpus, GpusNotOnTheHostAreBadInput) {
  const HostView v = host(topology("k80-two-sockets-hwloc1.xml"));
  EXPECT_EQ(select_gpus(v, "3, 0000:06:00.0", nullptr), (std::vector<std::size_t>{3, 0}));
  EXPECT_EQ(select_gpus(v, "84:00.0", nullptr), (std::vector<std::size_t>{2}));
  const auto error = [&](const std::string& spec) {
    try {
      select_gpus(v, spec, nullptr);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("4"), "--gpus: GPU 4 is not on this host: it has 4 GPUs (0-3)");
  EXPECT_EQ(error("0000:99:00.0"),
            "--gpus: 0000:99:00.0 is not a GPU of this host (0000:06:00.0, 0000:07:00.0, "
            "0000:84:00.0, 0000:85:00.0)");
  EXPECT_EQ(error("0,0"), "--gpus: GPU0 given twice");
  EXPECT_EQ(error("0,,1"), "--gpus: an empty item in '0,,1'");
  EXPECT_EQ(error("99999999999999999999"),
            "--gpus: GPU 99999999999999999999 is not on this host: it has 4 GPUs (0-3)");
}

TEST(SelectGpus, AConfigPassingNoneOfTheHostsGpusIsBadInput) {
  const HostView v = host(topology("k80-two-sockets-hwloc1.xml"));
  const VmConfig c = read_vm_config_file(testing::config("proxmox-technotim-100.conf"));
  EXPECT_THROW(select_gpus(v, "", &c), InputError);
}

}  // namespace
}  // namespace p2p::vm

namespace p2p::vm {
namespace {

// An nvidia-smi topo -m capture of n GPUs in 16 switches of n/16 (PIX within one, SYS across).
std::string sixteen_switches(std::size_t n) {
  std::string out = "\t";
  for (std::size_t c = 0; c < n; ++c) out += "GPU" + std::to_string(c) + "\t";
  out += "CPU Affinity\tNUMA Affinity\n";
  for (std::size_t r = 0; r < n; ++r) {
    out += "GPU" + std::to_string(r);
    for (std::size_t c = 0; c < n; ++c)
      out += r == c ? "\t X " : (r / (n / 16) == c / (n / 16) ? "\tPIX" : "\tSYS");
    out += "\t0-15\t0\n";
  }
  return out;
}

// Each pair's judgement is found in constant time: the plan grows with its n^2 pairs, not as
// n^4 log n (256 GPUs took 12.8 s, 384 over 30 s). 512 GPUs plan within the test's timeout, into
// the 16 cliques the switches give.
TEST(CliquePlan, FiveHundredTwelveGpusPlanInTheirSixteenSwitches) {
  const HostView v =
      make_host_view(topo::load_topology_text(sixteen_switches(512), "big.txt"), nullptr, "");
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "", nullptr), 0);
  ASSERT_EQ(p.provisional_groups.size(), 16u);
  for (const auto& c : p.provisional_groups) EXPECT_EQ(c.size(), 32u);
  EXPECT_EQ(p.pairs.size(), 512u * 511u / 2u);
}

}  // namespace
}  // namespace p2p::vm
