// require_cliques: the policy key and the gate's verdict on guests with and without cliques, and
// the clique readings a snapshot carries through its JSON.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot_json.hpp"
#include "topology/tests/test_support.hpp"
#include "topology/topo_text.hpp"

namespace p2p::topo {
namespace {

GpudirectCapability clique(int id) {
  GpudirectCapability c;
  c.state = GpudirectState::kPresent;
  c.clique = id;
  c.offset = 0xc8;
  return c;
}

GpudirectCapability absent() {
  GpudirectCapability c;
  c.state = GpudirectState::kAbsent;
  return c;
}

TopologySnapshot guest(std::vector<GpudirectCapability> caps) {
  auto t = testing::flat_phb(caps.size());
  t.environment.kind = "vm";
  t.gpudirect = std::move(caps);
  return t;
}

GatePolicy require_cliques() {
  return policy_from_json(nlohmann::json::parse(R"({"require_cliques": true})"), "policy.json");
}

std::vector<GateReason> rule(const GateDecision& d) {
  std::vector<GateReason> out;
  std::copy_if(d.reasons.begin(), d.reasons.end(), std::back_inserter(out),
               [](const GateReason& r) { return r.rule == "policy.require_cliques"; });
  return out;
}

TEST(PolicyRequireCliques, ParsesStrictlyAndRoundTrips) {
  EXPECT_TRUE(require_cliques().require_cliques);
  EXPECT_FALSE(policy_from_json(nlohmann::json::object(), "p").require_cliques);
  EXPECT_THROW(
      policy_from_json(nlohmann::json::parse(R"({"require_cliques": "yes"})"), "policy.json"),
      InputError);
  try {
    policy_from_json(nlohmann::json::parse(R"({"require_clique": true})"), "policy.json");
    FAIL() << "a misspelt key must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("require_cliques"), std::string::npos) << e.what();
  }
  EXPECT_EQ(nlohmann::json(require_cliques()).at("require_cliques"), true);
  EXPECT_FALSE(nlohmann::json(GatePolicy{}).contains("require_cliques"));
}

TEST(GateRequireCliques, BlocksEachGuestGpuWithoutAClique) {
  const auto d =
      evaluate_gate(guest({clique(0), absent(), clique(0)}), std::nullopt, require_cliques());
  EXPECT_FALSE(d.passed);
  const auto reasons = rule(d);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_STREQ(to_string(reasons[0].verdict), "block");
  EXPECT_EQ(reasons[0].gpus, std::vector<std::size_t>{1});
  EXPECT_NE(reasons[0].message.find("vm plan"), std::string::npos) << reasons[0].message;
}

TEST(GateRequireCliques, PassesAndNamesTheCliquesWhenEveryGpuHasOne) {
  const auto d = evaluate_gate(guest({clique(0), clique(0), clique(1), clique(1)}), std::nullopt,
                               require_cliques());
  EXPECT_TRUE(d.passed);
  EXPECT_EQ(rule(d).at(0).message,
            "every GPU carries a clique: clique 0: GPU0 GPU1; clique 1: GPU2 GPU3");
}

TEST(GateRequireCliques, PendingWhereTheConfigSpaceWasNotReadOrTheEnvironmentIsUnknown) {
  auto unread = testing::flat_phb(2);
  unread.environment.kind = "vm";
  EXPECT_STREQ(
      to_string(rule(evaluate_gate(unread, std::nullopt, require_cliques())).at(0).verdict),
      "pending");
  EXPECT_STREQ(
      to_string(
          rule(evaluate_gate(testing::flat_phb(2), std::nullopt, require_cliques())).at(0).verdict),
      "pending");  // an XML without environment facts
}

TEST(GateRequireCliques, BareMetalAndOneGpuPass) {
  auto host = testing::per_root_complex(4);
  host.environment.kind = "bare-metal";
  EXPECT_TRUE(evaluate_gate(host, std::nullopt, require_cliques()).passed);
  EXPECT_TRUE(evaluate_gate(guest({absent()}), std::nullopt, require_cliques()).passed);
}

// Docker in a KVM guest (the H200 host this was seen on): kind "container", but a hypervisor
// passes the GPUs through, so the clique rule applies to it as to the guest itself.
TEST(GateRequireCliques, AContainerInsideAVmIsJudgedAsTheGuest) {
  auto in_guest = guest({clique(0), absent()});
  in_guest.environment.kind = "container";
  in_guest.environment.container = "docker";
  in_guest.environment.hypervisor = "KVM";
  const auto d = evaluate_gate(in_guest, std::nullopt, require_cliques());
  EXPECT_FALSE(d.passed);
  EXPECT_EQ(rule(d).at(0).gpus, std::vector<std::size_t>{1});
  in_guest.gpus.resize(1);
  in_guest.gpudirect.resize(1);
  EXPECT_EQ(rule(evaluate_gate(in_guest, std::nullopt, require_cliques())).at(0).message,
            "one GPU: no pair needs a clique");
  auto lxc = testing::per_root_complex(2);
  lxc.environment.kind = "container";
  lxc.environment.container = "lxc";
  EXPECT_EQ(rule(evaluate_gate(lxc, std::nullopt, require_cliques())).at(0).message,
            "not a VM (container): cliques are for guests");
}

TEST(GateRequireCliques, TheTextKeepsALongRuleNameApartFromItsMessage) {
  const std::string text =
      format_gate_text(evaluate_gate(guest({absent()}), std::nullopt, require_cliques()));
  EXPECT_NE(text.find("policy.require_cliques  one GPU"), std::string::npos) << text;
}

TEST(SnapshotGpudirect, RoundTripsAndRefusesACliqueOver15) {
  const auto t = guest({clique(3), absent()});
  const nlohmann::json j = t;
  const auto back = j.get<TopologySnapshot>();
  ASSERT_EQ(back.gpudirect.size(), 2u);
  EXPECT_EQ(back.gpudirect[0].clique, 3);
  EXPECT_EQ(back.gpudirect[1].state, GpudirectState::kAbsent);
  nlohmann::json bad = j;
  bad["gpudirect"][0]["clique"] = 16;
  try {
    snapshot_from_json(bad, "guest.json");
    FAIL() << "clique 16 must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpudirect[0].clique: 16 is outside 0-15"),
              std::string::npos)
        << e.what();
  }
  bad = j;
  bad["gpudirect"][0]["offset"] = -1;  // hex() of it printed 0xffffffffffffffff
  try {
    snapshot_from_json(bad, "guest.json");
    FAIL() << "offset -1 must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpudirect[0].offset: -1 is outside a PCI function's "
                                         "configuration space (0 to 4095)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(nlohmann::json(testing::flat_phb(2)).contains("gpudirect"));
}

TEST(SnapshotGpudirect, TopoTextShowsCliquesInAGuestAndNothingOnBareMetal) {
  const std::string text = gpudirect_text(guest({clique(0), absent()}));
  EXPECT_NE(text.find("GPU0  0000:01:00.0  clique 0 (capability at 0xc8)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU1  0000:02:00.0  no virtual P2P approval capability"), std::string::npos)
      << text;
  EXPECT_NE(gpudirect_text(guest({absent(), absent()})).find("vm plan"), std::string::npos);
  auto host = testing::per_root_complex(2);
  host.environment.kind = "bare-metal";
  host.gpudirect = {absent(), absent()};
  EXPECT_EQ(gpudirect_text(host), "");
}

}  // namespace
}  // namespace p2p::topo
