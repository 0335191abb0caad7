#include "topology/gate.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "topology/diff.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

std::vector<GateReason> with_verdict(const GateDecision& d, const std::string& verdict) {
  std::vector<GateReason> out;
  std::copy_if(d.reasons.begin(), d.reasons.end(), std::back_inserter(out),
               [&](const GateReason& r) { return to_string(r.verdict) == verdict; });
  return out;
}

GatePolicy policy(const std::string& text) {
  return policy_from_json(nlohmann::json::parse(text), "policy.json");
}

TEST(GateExpect, FlatPhbAgainstANodeSysGoldenIsBlockedPairByPair) {
  auto vm = testing::flat_phb(8);
  vm.environment.kind = "vm";
  vm.environment.hypervisor = "KVM";
  const auto d = evaluate_gate(vm, testing::per_root_complex(8), std::nullopt);
  EXPECT_FALSE(d.passed);
  EXPECT_EQ(d.pairing, "index");
  const auto blocks = with_verdict(d, "block");
  ASSERT_EQ(blocks.size(), 28u);
  std::size_t k = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t j = i + 1; j < 8; ++j, ++k) {
      EXPECT_EQ(blocks[k].rule, "expect.pair_class");
      EXPECT_EQ(blocks[k].gpus, (std::vector<std::size_t>{i, j}));
      const std::string golden = i / 4 == j / 4 ? "NODE" : "SYS";
      EXPECT_EQ(blocks[k].message,
                pair_name(i, j) + ": PHB here, " + golden + " in the golden topology");
    }
  }
  // PHB ranks better than NODE/SYS, and it is still blocked: the rule is equality.
  const auto notes = with_verdict(d, "note");
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[1].message.find("taken in a VM (KVM)"), std::string::npos);
}

TEST(GateExpect, SameTopologyPasses) {
  const auto d =
      evaluate_gate(testing::per_root_complex(8), testing::per_root_complex(8), std::nullopt);
  EXPECT_TRUE(d.passed);
  EXPECT_EQ(d.pairing, "pci_bus_id");
  EXPECT_EQ(d.blocking(), 0u);
  EXPECT_EQ(with_verdict(d, "pass").size(), 2u);
}

TEST(GateExpect, GpuCountMismatchBlocks) {
  const auto d =
      evaluate_gate(testing::per_root_complex(7), testing::per_root_complex(8), std::nullopt);
  EXPECT_FALSE(d.passed);
  ASSERT_EQ(d.blocking(), 1u);
  EXPECT_EQ(d.reasons[0].rule, "expect.gpu_count");
  EXPECT_EQ(d.reasons[0].message, "7 GPUs here, 8 in the golden topology");
}

TEST(GatePolicy, MinGpus) {
  EXPECT_TRUE(
      evaluate_gate(testing::flat_phb(8), std::nullopt, policy(R"({"min_gpus": 8})")).passed);
  const auto d = evaluate_gate(testing::flat_phb(4), std::nullopt, policy(R"({"min_gpus": 8})"));
  EXPECT_FALSE(d.passed);
  EXPECT_EQ(d.reasons[0].message, "4 GPUs, min_gpus 8");
}

TEST(GatePolicy, MaxPathBlocksEveryWorsePair) {
  const auto d =
      evaluate_gate(testing::per_root_complex(8), std::nullopt, policy(R"({"max_path": "NODE"})"));
  EXPECT_FALSE(d.passed);
  const auto blocks = with_verdict(d, "block");
  ASSERT_EQ(blocks.size(), 16u);  // every cross-socket pair
  EXPECT_EQ(blocks[0].message, "GPU0-GPU4: SYS is worse than max_path NODE");
  EXPECT_TRUE(
      evaluate_gate(testing::per_root_complex(8), std::nullopt, policy(R"({"max_path": "SYS"})"))
          .passed);
  EXPECT_TRUE(
      evaluate_gate(testing::flat_phb(8), std::nullopt, policy(R"({"max_path": "PHB"})")).passed);
}

TEST(GatePolicy, NvlinkCountsAsTheBestClass) {
  auto t = testing::per_root_complex(2);
  t.nvlink_count[0][1] = t.nvlink_count[1][0] = 4;
  EXPECT_TRUE(evaluate_gate(t, std::nullopt, policy(R"({"max_path": "PIX"})")).passed);
  EXPECT_FALSE(evaluate_gate(t, std::nullopt, policy(R"({"forbid": ["NV"]})")).passed);
}

TEST(GatePolicy, ForbidListsEachForbiddenPair) {
  const auto d = evaluate_gate(testing::per_root_complex(8), std::nullopt,
                               policy(R"({"forbid": ["SYS", "PHB"]})"));
  EXPECT_EQ(d.blocking(), 16u);
  EXPECT_EQ(with_verdict(d, "block")[0].message, "GPU0-GPU4: SYS is forbidden");
  const auto ok =
      evaluate_gate(testing::flat_phb(2), std::nullopt, policy(R"({"forbid": ["SYS"]})"));
  EXPECT_TRUE(ok.passed);
  EXPECT_EQ(with_verdict(ok, "pass")[0].message, "no pair is SYS");
}

TEST(GatePolicy, MinLinkJudgesWidthNowAndGenerationByWhatTheSlotCanTrain) {
  auto t = testing::per_root_complex(4);
  // GPU0: idle at Gen1 but the slot trains Gen5: fine. GPU1: a x8 link: a fault.
  // GPU2: only hwloc's ambiguous figure: unknown. GPU3: Gen3 slot.
  t.gpus[0].link_current = PcieLink{1, 16, 4.0};
  t.gpus[0].link_max = PcieLink{5, 16, 63.015};
  t.gpus[1].link_current = PcieLink{5, 8, 31.508};
  t.gpus[2].link_current = PcieLink{std::nullopt, std::nullopt, 31.508};
  t.gpus[3].link_current = PcieLink{3, 16, 15.754};
  t.gpus[3].link_max = PcieLink{3, 16, 15.754};
  const auto d = evaluate_gate(t, std::nullopt, policy(R"({"min_link": {"gen": 4, "width": 16}})"));
  const auto blocks = with_verdict(d, "block");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].gpus, std::vector<std::size_t>{1});
  EXPECT_EQ(blocks[0].message,
            "GPU1 (0000:11:00.0): x8 below x16 (current Gen5 x8, max unknown), min_link Gen4 x16");
  EXPECT_EQ(blocks[1].gpus, std::vector<std::size_t>{2});
  EXPECT_NE(blocks[1].message.find(
                "link generation/width unknown (current 31.508 GB/s (Gen4 x16 or Gen5 x8)"),
            std::string::npos)
      << blocks[1].message;
  EXPECT_EQ(
      blocks[2].message,
      "GPU3 (0000:31:00.0): Gen3 below Gen4 (current Gen3 x16, max Gen3 x16), min_link Gen4 x16");
}

TEST(GatePolicy, RequireP2pIsPendingWithoutALiveCheck) {
  const auto d =
      evaluate_gate(testing::flat_phb(2), std::nullopt, policy(R"({"require_p2p": true})"));
  EXPECT_TRUE(d.passed);
  EXPECT_EQ(d.p2p_check, "needs a live CUDA check");
  ASSERT_EQ(with_verdict(d, "pending").size(), 1u);
}

TEST(GatePolicy, RequireP2pUsesTheLiveCheckWhenGiven) {
  const PeerAccessCheck no_peer = [](const TopologySnapshot&) {
    return std::vector<PeerAccessResult>{{0, 1, false, "cudaDeviceCanAccessPeer = 0"}};
  };
  const auto blocked = evaluate_gate(testing::flat_phb(2), std::nullopt,
                                     policy(R"({"require_p2p": true})"), no_peer);
  EXPECT_FALSE(blocked.passed);
  EXPECT_EQ(blocked.p2p_check, "failed");
  EXPECT_EQ(with_verdict(blocked, "block")[0].message,
            "GPU0-GPU1: no CUDA peer access (cudaDeviceCanAccessPeer = 0)");

  int calls = 0;
  const PeerAccessCheck peers = [&](const TopologySnapshot& t) {
    ++calls;
    EXPECT_EQ(t.gpus.size(), 2u);
    return std::vector<PeerAccessResult>{{0, 1, true, ""}};
  };
  const auto ok =
      evaluate_gate(testing::flat_phb(2), std::nullopt, policy(R"({"require_p2p": true})"), peers);
  EXPECT_TRUE(ok.passed);
  EXPECT_EQ(ok.p2p_check, "passed");
  EXPECT_EQ(calls, 1);
  // Not requested: the check is never called.
  evaluate_gate(testing::flat_phb(2), std::nullopt, policy("{}"), peers);
  EXPECT_EQ(calls, 1);
}

TEST(GateDecisionJson, RoundTripsAndCarriesEveryReason) {
  const auto d = evaluate_gate(testing::flat_phb(8), testing::per_root_complex(8),
                               policy(R"({"min_gpus": 8, "require_p2p": true})"));
  const nlohmann::json j = d;
  EXPECT_EQ(j.at("schema"), "p2pcheck.gate");
  EXPECT_EQ(j.at("decision"), "blocked");
  EXPECT_EQ(j.at("blocking"), 28);
  EXPECT_EQ(j.at("p2p_check"), "needs a live CUDA check");
  EXPECT_EQ(j.at("policy").at("min_gpus"), 8);
  EXPECT_EQ(j.at("reasons").size(), d.reasons.size());
  const auto back = j.get<GateDecision>();
  EXPECT_EQ(nlohmann::json(back), j);
}

// 28 pairs that differ the same way are one line with their count, not 28 lines; a VM's note
// comes first, and the last line says what to do.
TEST(GateText, GroupsReasonsOfOneKindAndEndsOnTheNextStep) {
  auto guest = testing::flat_phb(8);
  guest.environment.kind = "vm";
  const auto d = evaluate_gate(guest, testing::per_root_complex(8), std::nullopt);
  ASSERT_EQ(d.blocking(), 28u);
  const std::string text = format_gate_text(d);
  EXPECT_EQ(text.rfind("gate: BLOCKED (28 blocking reasons)\n"
                       "  note    note                this snapshot was taken in a VM: its PCIe "
                       "tree is the hypervisor's emulation, not the host's\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("  BLOCK   expect.pair_class   PHB here, NODE in the golden topology: 12 "
                      "pairs (GPU0-GPU1, GPU0-GPU2, GPU0-GPU3, GPU1-GPU2, GPU1-GPU3, GPU2-GPU3 "
                      "and 6 more)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("PHB here, SYS in the golden topology: 16 pairs"), std::string::npos) << text;
  EXPECT_EQ(text.find("GPU6-GPU7"), std::string::npos) << text;  // counted, not listed
  EXPECT_EQ(text.substr(text.rfind('\n', text.size() - 2) + 1, 35),
            "next: a VM's PCIe tree is the hyper")
      << text;
  // Not a VM: the same pairs, the next step a diff.
  const std::string host = format_gate_text(
      evaluate_gate(testing::flat_phb(8), testing::per_root_complex(8), std::nullopt));
  EXPECT_NE(host.find("next: p2pcheck topo diff THIS GOLDEN"), std::string::npos) << host;
  // One reason of its kind keeps its GPUs in front, as before.
  GateDecision one;
  one.passed = false;
  one.reasons.push_back(
      {"policy.forbid", GateVerdict::kBlock, "GPU0-GPU1: SYS is forbidden", {0, 1}});
  EXPECT_NE(format_gate_text(one).find("policy.forbid       GPU0-GPU1: SYS is forbidden\n"),
            std::string::npos)
      << format_gate_text(one);
}

}  // namespace
}  // namespace p2p::topo
