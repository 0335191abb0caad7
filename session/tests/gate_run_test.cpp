// `gate` from files, on the CPU: what it refuses before reading anything, the decision on a
// capture against a golden topology or a policy, and where the require_p2p answer comes from.
#include "session/gate_run.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace {

using p2p::session::GateRequest;
using p2p::session::run_gate;

std::string topology_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/" + name;
}
std::string capture_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name;
}

// CUDA's answer on peer access, for tests: every pair `can`, and a count of the times asked.
p2p::topo::PeerAccessCheck peer_access(bool can, int& asked) {
  return [can, &asked](const p2p::topo::TopologySnapshot& t) {
    ++asked;
    std::vector<p2p::topo::PeerAccessResult> out;
    for (std::size_t a = 0; a < t.gpus.size(); ++a)
      for (std::size_t b = a + 1; b < t.gpus.size(); ++b) out.push_back({a, b, can, "test"});
    return out;
  };
}

TEST(GateRun, NothingToCheckIsBadInput) {
  GateRequest r;
  r.input = topology_fixture("rtxpro6000-vm.xml");
  EXPECT_THROW(run_gate(r), p2p::InputError);
}

TEST(GateRun, AP2pCaptureWithoutItsTopologyIsBadInput) {
  GateRequest r;
  r.policy = topology_fixture("policy-rtxpro6000.json");
  r.p2p = capture_fixture("rtxpro6000-vm-p2p-r.txt");
  try {
    run_gate(r);
    FAIL() << "expected InputError";
  } catch (const p2p::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("give it with --input"), std::string::npos) << e.what();
  }
}

TEST(GateRun, AMissingPolicyFileIsNamed) {
  GateRequest r;
  r.input = topology_fixture("rtxpro6000-vm.xml");
  r.policy = topology_fixture("no-such-policy.json");
  try {
    run_gate(r);
    FAIL() << "expected InputError";
  } catch (const p2p::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-policy.json"), std::string::npos) << e.what();
  }
}

TEST(GateRun, TheVmAgainstTheLxcGoldenIsBlocked) {
  GateRequest r;
  r.input = topology_fixture("rtxpro6000-vm.xml");
  r.expect = topology_fixture("rtxpro6000-lxc.xml");
  const auto g = run_gate(r);
  EXPECT_FALSE(g.decision.passed);
  EXPECT_EQ(g.decision.blocking(), 28u);
  EXPECT_EQ(g.decision.expected_source, r.expect) << "the decision names the golden file given";
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.source, r.input);
  EXPECT_EQ(g.gpu_count, 8u);
}

TEST(GateRun, TheLxcAgainstItselfPasses) {
  GateRequest r;
  r.input = topology_fixture("rtxpro6000-lxc.xml");
  r.expect = std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/rtxpro6000-lxc.json";
  const auto g = run_gate(r);
  EXPECT_TRUE(g.decision.passed);
  EXPECT_EQ(g.exit_code, 0);
}

TEST(GateRun, ACaptureIsNeverJudgedByThisHostsPeerAccess) {
  GateRequest r;
  r.input = topology_fixture("rtxpro6000-lxc.xml");
  r.policy = topology_fixture("policy-rtxpro6000.json");  // require_p2p among others
  int asked = 0;
  const auto g = run_gate(r, peer_access(false, asked));
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(g.decision.p2p_check, "needs a live CUDA check");
}

TEST(GateRun, ATopoP2pCaptureAnswersRequireP2p) {
  GateRequest r;
  r.input = capture_fixture("rtxpro6000-vm-topo.txt");
  r.p2p = capture_fixture("rtxpro6000-vm-p2p-r.txt");
  r.policy = capture_fixture("policy-require-p2p.json");
  const auto g = run_gate(r);
  EXPECT_TRUE(g.decision.passed);
  EXPECT_EQ(g.exit_code, 0);
  EXPECT_EQ(g.decision.p2p_check, "passed");
}

}  // namespace
