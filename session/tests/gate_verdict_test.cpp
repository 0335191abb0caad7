// The gate before measuring, from the topology fixtures and policies kept in the repository:
// what blocks, what --skip-gate records instead, and what the results document carries.
#include "session/gate_verdict.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "topology/discovery/discovery.hpp"

namespace {

using p2p::session::GateFiles;
using p2p::session::judge_gate;
using p2p::session::MeasurementGateOptions;

std::string fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/" + name;
}

p2p::topo::TopologySnapshot topology(const std::string& xml) {
  return p2p::topo::load_topology(fixture(xml));
}

GateFiles files_with_policy(const std::string& path) {
  MeasurementGateOptions o;
  o.policy = path;
  return p2p::session::read_gate_files(o);
}

// CUDA's answer on peer access, as a table: every pair `can`.
p2p::topo::PeerAccessCheck peer_access(bool can) {
  return [can](const p2p::topo::TopologySnapshot& t) {
    std::vector<p2p::topo::PeerAccessResult> out;
    for (std::size_t a = 0; a < t.gpus.size(); ++a) {
      for (std::size_t b = 0; b < t.gpus.size(); ++b) {
        if (a != b)
          out.push_back(
              {a, b, can, can ? "cudaDeviceCanAccessPeer = 1" : "cudaDeviceCanAccessPeer = 0"});
      }
    }
    return out;
  };
}

TEST(GateBeforeMeasuring, TheH200PassesTheDefaultPolicy) {
  const auto tg =
      judge_gate(topology("h200-vm.xml"),
                 files_with_policy(std::string(P2P_SOURCE_DIR) + "/results/policies/default.json"),
                 peer_access(true), false);
  EXPECT_FALSE(tg.blocked);
  EXPECT_EQ(tg.gate.decision, p2p::topo::GateVerdict::kPass);
  EXPECT_EQ(tg.gate.detail, "passed");
  EXPECT_TRUE(tg.gate.reasons.has_value());
  EXPECT_EQ(tg.snapshot.gpus.size(), 1u);
}

TEST(GateBeforeMeasuring, APolicyTheHostMissesBlocksTheRun) {
  // Eight GPUs on two sockets: the pairs across them are SYS, worse than the NODE asked for.
  const GateFiles files = files_with_policy(fixture("policy-rtxpro6000.json"));
  const auto tg = judge_gate(topology("rtxpro6000-lxc.xml"), files, peer_access(true), false);
  EXPECT_TRUE(tg.blocked);
  EXPECT_EQ(tg.gate.decision, p2p::topo::GateVerdict::kBlock);
  const auto decision = *tg.gate.reasons;
  ASSERT_GT(decision.blocking(), 0u);
  EXPECT_EQ(tg.gate.detail, std::to_string(decision.blocking()) + " blocking reason(s)");

  const std::string message = p2p::session::blocked_message("bench", tg);
  EXPECT_EQ(message.rfind(p2p::topo::format_gate_text(decision), 0), 0u) << message;
  // The last line in the grammar of every command, the first blocking reason on it.
  const std::string last = "; nothing was measured (--skip-gate overrides, and is recorded)\n";
  EXPECT_NE(message.find("\np2pcheck bench: BLOCKED — policy.max_path: "), std::string::npos)
      << message;
  ASSERT_GE(message.size(), last.size());
  EXPECT_EQ(message.substr(message.size() - last.size()), last);
}

TEST(GateBeforeMeasuring, SkipGateRecordsTheBlockInsteadOfEnforcingIt) {
  const GateFiles files = files_with_policy(fixture("policy-rtxpro6000.json"));
  const auto enforced = judge_gate(topology("rtxpro6000-lxc.xml"), files, peer_access(true), false);
  const auto skipped = judge_gate(topology("rtxpro6000-lxc.xml"), files, peer_access(true), true);
  EXPECT_FALSE(skipped.blocked);
  EXPECT_EQ(skipped.gate.decision, p2p::topo::GateVerdict::kBlock);
  EXPECT_EQ(skipped.gate.detail, enforced.gate.detail + "; measured anyway (--skip-gate)");
  EXPECT_EQ(nlohmann::json(*skipped.gate.reasons), nlohmann::json(*enforced.gate.reasons));
}

TEST(GateBeforeMeasuring, PeerAccessCountsWhereThePolicyRequiresIt) {
  const GateFiles files = files_with_policy(fixture("policy-rtxpro6000.json"));
  const auto with = judge_gate(topology("rtxpro6000-vm.xml"), files, peer_access(true), false);
  const auto without = judge_gate(topology("rtxpro6000-vm.xml"), files, peer_access(false), false);
  // Every pair PHB: within the policy's NODE, so only CUDA's answer decides.
  EXPECT_FALSE(with.blocked);
  EXPECT_TRUE(without.blocked);
  EXPECT_GT(without.gate.reasons->blocking(), with.gate.reasons->blocking());
  EXPECT_EQ(without.gate.reasons->p2p_check, "failed");
}

TEST(GateBeforeMeasuring, AGoldenTopologyOfAnotherHostBlocks) {
  MeasurementGateOptions o;
  o.expect = fixture("hgx-nvswitch.xml");
  const GateFiles files = p2p::session::read_gate_files(o);
  ASSERT_TRUE(files.expected.has_value());
  EXPECT_FALSE(files.policy.has_value());
  EXPECT_TRUE(judge_gate(topology("h200-vm.xml"), files, {}, false).blocked);
  EXPECT_FALSE(judge_gate(topology("hgx-nvswitch.xml"), files, {}, false).blocked);
}

TEST(GateBeforeMeasuring, NoFilesNoPolicyPasses) {
  const auto tg = judge_gate(topology("pcie-switch.xml"), GateFiles{}, {}, false);
  EXPECT_FALSE(tg.blocked);
  EXPECT_EQ(tg.gate.detail, "passed");
}

TEST(GateFiles, AFileThatCannotBeReadIsBadInput) {
  MeasurementGateOptions o;
  o.policy = "/nonexistent/policy.json";
  EXPECT_THROW(p2p::session::read_gate_files(o), p2p::InputError);
  o.policy.clear();
  o.expect = "/nonexistent/golden.xml";
  EXPECT_THROW(p2p::session::read_gate_files(o), p2p::InputError);
}

TEST(GateFilesOfGateCheckAndNode, ThePolicyIsReadFirstAndTheGoldenKeepsItsFileName) {
  const std::string missing_policy = fixture("no-such-policy.json");
  const std::string missing_golden = fixture("no-such-golden.xml");
  try {
    p2p::session::read_policy_and_golden(missing_policy, missing_golden);
    FAIL() << "expected InputError";
  } catch (const p2p::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-policy.json"), std::string::npos) << e.what();
  }
  const auto files = p2p::session::read_policy_and_golden(fixture("policy-rtxpro6000.json"),
                                                          fixture("h200-vm.xml"));
  ASSERT_TRUE(files.policy.has_value());
  ASSERT_TRUE(files.expected.has_value());
  EXPECT_EQ(files.expected->source, fixture("h200-vm.xml"));
  EXPECT_FALSE(p2p::session::read_policy_and_golden("", "").expected.has_value());
}

}  // namespace

// bench and nccl judge their own environment before measuring: NCCL_P2P_LEVEL=LOC blocks a host
// the policy passes, and --skip-gate still records the block.
TEST(GateBeforeMeasuring, AnEnvironmentWithoutP2pBlocksTheRunNamingTheVariable) {
  const GateFiles files =
      files_with_policy(std::string(P2P_SOURCE_DIR) + "/results/policies/default.json");
  const auto tg = judge_gate(topology("h200-vm.xml"), files, peer_access(true), false,
                             {{"NCCL_P2P_LEVEL", "LOC"}});
  EXPECT_TRUE(tg.blocked);
  const std::string text = p2p::topo::format_gate_text(*tg.gate.reasons);
  EXPECT_NE(text.find("env.p2p"), std::string::npos) << text;
  EXPECT_NE(text.find("NCCL_P2P_LEVEL=LOC"), std::string::npos) << text;
  EXPECT_FALSE(judge_gate(topology("h200-vm.xml"), files, peer_access(true), false,
                          {{"NCCL_P2P_LEVEL", "LOC"}}, {"NCCL_P2P_LEVEL"})
                   .blocked);
}
