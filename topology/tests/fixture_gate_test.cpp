// The gate and the diff on the fixtures: the VFIO VM against the LXC container of one host.
#include <gtest/gtest.h>

#include "topology/diff.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

using testing::fixture;
using testing::golden;

GatePolicy policy(const std::string& text) {
  return policy_from_json(nlohmann::json::parse(text), "policy.json");
}

TEST(FixtureGate, VmAgainstTheLxcGoldenIsBlockedWith28Pairs) {
  const auto vm = load_topology(golden("rtxpro6000-vm.json"));
  const auto lxc = load_topology(golden("rtxpro6000-lxc.json"));
  const auto d = evaluate_gate(vm, lxc, std::nullopt);
  EXPECT_FALSE(d.passed);
  EXPECT_EQ(d.pairing, "index");
  EXPECT_EQ(d.blocking(), 28u);
  std::vector<std::string> blocked;
  for (const auto& r : d.reasons)
    if (r.verdict == GateVerdict::kBlock) blocked.push_back(r.message);
  EXPECT_EQ(blocked.front(), "GPU0-GPU1: PHB here, NODE in the golden topology");
  EXPECT_EQ(blocked[3], "GPU0-GPU4: PHB here, SYS in the golden topology");
  EXPECT_EQ(blocked.back(), "GPU6-GPU7: PHB here, NODE in the golden topology");
  EXPECT_EQ(d.expected_source, "topology/tests/fixtures/rtxpro6000-lxc.xml");
}

TEST(FixtureGate, TheSameFromTheXmlFiles) {
  const auto d = evaluate_gate(load_topology(fixture("rtxpro6000-vm.xml")),
                               load_topology(fixture("rtxpro6000-lxc.xml")), std::nullopt);
  EXPECT_EQ(d.blocking(), 28u);
}

TEST(FixtureGate, LxcAgainstItselfPasses) {
  const auto lxc = load_topology(fixture("rtxpro6000-lxc.xml"));
  const auto d = evaluate_gate(lxc, load_topology(golden("rtxpro6000-lxc.json")), std::nullopt);
  EXPECT_TRUE(d.passed);
  EXPECT_EQ(d.pairing, "pci_bus_id");
}

TEST(FixtureGate, PolicyCases) {
  const auto lxc = load_topology(golden("rtxpro6000-lxc.json"));
  EXPECT_TRUE(evaluate_gate(lxc, std::nullopt,
                            policy(R"({"min_gpus": 8, "min_link": {"gen": 5, "width": 16}})"))
                  .passed);
  EXPECT_EQ(evaluate_gate(lxc, std::nullopt, policy(R"({"max_path": "NODE"})")).blocking(), 16u);
  EXPECT_EQ(
      evaluate_gate(lxc, std::nullopt, policy(R"({"forbid": ["SYS"], "min_gpus": 9})")).blocking(),
      17u);

  const auto sw = load_topology(fixture("pcie-switch.xml"));
  // PHB between the two root ports: 8 pairs; the NVLinked pairs count as NV, better than PIX.
  EXPECT_EQ(evaluate_gate(sw, std::nullopt, policy(R"({"max_path": "PXB"})")).blocking(), 8u);
  EXPECT_EQ(evaluate_gate(sw, std::nullopt, policy(R"({"max_path": "PIX"})")).blocking(), 12u);
  // The XML cannot tell Gen4 x16 from Gen5 x8: a link requirement cannot be confirmed.
  EXPECT_EQ(evaluate_gate(sw, std::nullopt, policy(R"({"min_link": {"gen": 4, "width": 16}})"))
                .blocking(),
            6u);

  const auto h200 = load_topology(fixture("h200-vm.xml"));
  const auto d = evaluate_gate(h200, std::nullopt,
                               policy(R"({"min_gpus": 1, "min_link": {"gen": 5, "width": 16},
                                                               "require_p2p": true})"));
  EXPECT_TRUE(d.passed);
  EXPECT_EQ(d.p2p_check, "needs a live CUDA check");
}

TEST(FixtureDiff, VmAgainstLxc) {
  const auto d = diff_topologies(load_topology(fixture("rtxpro6000-vm.xml")),
                                 load_topology(fixture("rtxpro6000-lxc.xml")));
  EXPECT_FALSE(d.same());
  EXPECT_EQ(d.pairing, "index");
  EXPECT_EQ(d.changed.size(), 28u);
  EXPECT_EQ(d.counts_before, (ClassCounts{{"PHB", 28}}));
  EXPECT_EQ(d.counts_after, (ClassCounts{{"NODE", 12}, {"SYS", 16}}));
}

TEST(FixtureDiff, XmlAgainstItsOwnGoldenSnapshotIsSame) {
  const auto d = diff_topologies(load_topology(fixture("pcie-switch.xml")),
                                 load_topology(golden("pcie-switch.json")));
  EXPECT_TRUE(d.same());
  EXPECT_EQ(d.pairing, "pci_bus_id");
  EXPECT_EQ(d.counts_before, (ClassCounts{{"NV12", 3}, {"PXB", 4}, {"PHB", 8}}));
}

}  // namespace
}  // namespace p2p::topo
