// The gate follows the doctor's GPU health: the GPUs a verdict names failing block the gate, each
// by name and cause, matched to the topology by bus id.
#include "session/gate_health.hpp"

#include <gtest/gtest.h>

#include "doctor/facts.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/verdict/verdict.hpp"
#include "topology/gate.hpp"

namespace {

using namespace p2p;

std::string doctor_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/doctor/tests/fixtures/" + name;
}

doctor::Verdict verdict_of(const std::string& fixture) {
  const doctor::Facts f = doctor::load_facts_file(doctor_fixture(fixture));
  return doctor::conclude(f, doctor::judge(f));
}

topo::TopologySnapshot two_gpus() {
  topo::TopologySnapshot t;
  t.gpus.resize(2);
  t.gpus[0].pci_bus_id = "0000:41:00.0";
  t.gpus[1].pci_bus_id = "0000:61:00.0";
  return t;
}

TEST(GateHealth, TheFailingGpusOfAVerdictComeWithTheirCause) {
  const auto failing = session::failing_gpus_of(verdict_of("vllm-ecc-hardware-failure.json"));
  ASSERT_EQ(failing.size(), 1u);
  EXPECT_EQ(failing[0].pci_bus_id, "0000:41:00.0");
  EXPECT_NE(failing[0].why.find("GPU memory is failing"), std::string::npos) << failing[0].why;
  EXPECT_TRUE(session::failing_gpus_of(verdict_of("bare-metal-healthy.json")).empty());
}

TEST(GateHealth, AFailingGpuBlocksTheGateByName) {
  topo::GateDecision d;  // a gate that passed on topology alone
  const auto t = two_gpus();
  session::block_failing_gpus(d, t, {{"0000:41:00.0", "GPU memory is failing"}});
  EXPECT_FALSE(d.passed);
  ASSERT_EQ(d.blocking(), 1u);
  EXPECT_EQ(d.reasons[0].rule, "health.gpu");
  EXPECT_EQ(d.reasons[0].gpus, (std::vector<std::size_t>{0}));
  EXPECT_EQ(d.reasons[0].message,
            "GPU0 (0000:41:00.0) is failing: GPU memory is failing (p2pcheck doctor has the "
            "evidence and the fix)");
}

TEST(GateHealth, NoFailingGpuLeavesTheDecisionAsItWas) {
  topo::GateDecision d;
  session::block_failing_gpus(d, two_gpus(), {});
  EXPECT_TRUE(d.passed);
  EXPECT_TRUE(d.reasons.empty());
}

TEST(GateHealth, AFailingGpuOutsideTheTopologyIsNamedByItsBusId) {
  topo::GateDecision d;
  session::block_failing_gpus(d, two_gpus(), {{"0000:b3:00.0", "fell off the bus"}});
  EXPECT_FALSE(d.passed);
  EXPECT_TRUE(d.reasons[0].gpus.empty());
  EXPECT_EQ(d.reasons[0].message.rfind("0000:b3:00.0 is failing", 0), 0u) << d.reasons[0].message;
}

}  // namespace
