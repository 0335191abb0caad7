// The environment under which an acceptance run cannot be about P2P (session/gate_environment.hpp):
// which variables block the gate, what the reason says, and --allow-env turning a block into a
// note.
#include "session/gate_environment.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace {

using namespace p2p::session;
using p2p::topo::GateDecision;
using p2p::topo::GateVerdict;

TEST(GateEnvironment, EachVariableThatTakesP2pAwayIsARisk) {
  EXPECT_EQ(p2p_environment_risks({{"NCCL_P2P_DISABLE", "1"}}, 8).size(), 1u);
  EXPECT_EQ(p2p_environment_risks({{"NCCL_P2P_LEVEL", "LOC"}}, 8).size(), 1u);
  EXPECT_EQ(p2p_environment_risks({{"NCCL_P2P_LEVEL", "0"}}, 8).size(), 1u);
  EXPECT_EQ(p2p_environment_risks({{"CUDA_VISIBLE_DEVICES", "0,1"}}, 8).size(), 1u);
  EXPECT_EQ(p2p_environment_risks({{"CUDA_VISIBLE_DEVICES", ""}}, 1).size(), 1u)
      << "an empty list hides every GPU";
  const auto hidden = p2p_environment_risks({{"CUDA_VISIBLE_DEVICES", "0,,1"}}, 4);
  ASSERT_EQ(hidden.size(), 1u);
  EXPECT_EQ(hidden[0].why, "CUDA sees 2 of the 4 GPUs the topology has");
}

TEST(GateEnvironment, SettingsThatKeepP2pAreNoRisk) {
  EXPECT_TRUE(p2p_environment_risks({}, 8).empty());
  EXPECT_TRUE(p2p_environment_risks({{"NCCL_P2P_DISABLE", "0"}}, 8).empty());
  EXPECT_TRUE(p2p_environment_risks({{"NCCL_P2P_LEVEL", "SYS"}}, 8).empty());
  EXPECT_TRUE(p2p_environment_risks({{"CUDA_VISIBLE_DEVICES", "3,2,1,0"}}, 4).empty())
      << "every GPU, in another order";
  EXPECT_TRUE(p2p_environment_risks({{"NCCL_DEBUG", "INFO"}}, 4).empty());
}

TEST(GateEnvironment, ARiskBlocksNamingTheVariableAndAllowEnvMakesItANote) {
  const auto risks = p2p_environment_risks({{"NCCL_P2P_DISABLE", "1"}}, 2);
  GateDecision blocked;
  judge_environment(blocked, risks, {});
  EXPECT_FALSE(blocked.passed);
  ASSERT_EQ(blocked.reasons.size(), 1u);
  EXPECT_EQ(blocked.reasons[0].rule, "env.p2p");
  EXPECT_EQ(blocked.reasons[0].verdict, GateVerdict::kBlock);
  EXPECT_NE(blocked.reasons[0].message.find("NCCL_P2P_DISABLE=1"), std::string::npos);
  EXPECT_NE(blocked.reasons[0].message.find("--allow-env NCCL_P2P_DISABLE"), std::string::npos);

  GateDecision allowed;
  judge_environment(allowed, risks, {"NCCL_P2P_DISABLE"});
  EXPECT_TRUE(allowed.passed);
  ASSERT_EQ(allowed.reasons.size(), 1u);
  EXPECT_EQ(allowed.reasons[0].verdict, GateVerdict::kNote);
  EXPECT_NE(allowed.reasons[0].message.find("accepted by --allow-env"), std::string::npos);

  GateDecision other;
  judge_environment(other, risks, {"CUDA_VISIBLE_DEVICES"});
  EXPECT_FALSE(other.passed) << "allowing one variable allows no other";
}

TEST(GateEnvironment, AllowEnvNamesOnlyVariablesTheGateJudges) {
  EXPECT_NO_THROW(check_allowed_variable("NCCL_P2P_LEVEL"));
  try {
    check_allowed_variable("NCCL_ALGO");
    FAIL() << "accepted";
  } catch (const p2p::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--allow-env NCCL_ALGO"), std::string::npos) << e.what();
  }
}

}  // namespace
