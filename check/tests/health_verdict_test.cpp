// The health check's wording, which Slurm, NHC and node-problem-detector log as the node's
// reason: the worst step decides the code, and the verdict line names every failed step.
#include "check/health_verdict.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/exit_codes.hpp"

namespace p2p::ci {
namespace {

doctor::Finding finding(const std::string& id, doctor::Status status, const std::string& summary) {
  doctor::Finding f;
  f.id = id;
  f.status = status;
  f.summary = summary;
  return f;
}

topo::GateReason reason(const std::string& rule, const std::string& verdict,
                        const std::string& message) {
  topo::GateReason r;
  r.rule = rule;
  r.verdict = nlohmann::json(verdict).get<topo::GateVerdict>();
  r.message = message;
  return r;
}

TEST(HealthVerdict, DoctorLineIsTheHeadlineWhenNothingFailed) {
  const std::vector<doctor::Finding> findings = {
      finding("driver.loaded", doctor::Status::kPass, "loaded"),
      finding("iommu.mode", doctor::Status::kWarn, "translated")};
  EXPECT_EQ(doctor_step_line("no problem found", findings), "doctor: no problem found");
}

TEST(HealthVerdict, DoctorLineCountsFailuresAndNamesTheFirst) {
  const std::vector<doctor::Finding> findings = {
      finding("iommu.mode", doctor::Status::kWarn, "translated"),
      finding("gsp.firmware_file", doctor::Status::kFail, "firmware missing"),
      finding("uvm.loaded", doctor::Status::kFail, "nvidia_uvm not loaded")};
  EXPECT_EQ(doctor_step_line("GSP firmware", findings),
            "doctor: GSP firmware (2 failed, first gsp.firmware_file: firmware missing)");
}

TEST(HealthVerdict, GateLineSaysPassOrTheFirstBlockingReason) {
  topo::GateDecision passed;
  passed.reasons = {reason("note", "note", "no golden topology given")};
  EXPECT_EQ(gate_step_line(passed), "gate: pass");

  topo::GateDecision blocked;
  blocked.passed = false;
  blocked.reasons = {reason("note", "note", "no golden topology given"),
                     reason("policy.min_gpus", "block", "2 GPUs, policy wants 8"),
                     reason("policy.max_path", "block", "GPU 0 <-> GPU 1 crosses SYS")};
  EXPECT_EQ(gate_step_line(blocked),
            "gate: BLOCKED (2 blocking, first policy.min_gpus: 2 GPUs, policy wants 8)");
}

TEST(HealthVerdict, TheWorstStepDecidesTheExitCode) {
  EXPECT_EQ(worst_exit_code({}), kExitOk);
  EXPECT_EQ(worst_exit_code({{"doctor", kExitOk, ""}, {"topo", kExitOk, ""}}), kExitOk);
  EXPECT_EQ(worst_exit_code(
                {{"doctor", kExitFailed, ""}, {"topo", kExitRuntime, ""}, {"gate", kExitOk, ""}}),
            kExitRuntime);
}

TEST(HealthVerdict, VerdictLineNamesEveryFailedStepInOrder) {
  EXPECT_EQ(verdict_line({{"doctor", kExitOk, "doctor: fine"}, {"gate", kExitOk, "gate: pass"}},
                         "node-a"),
            "p2pcheck check: OK on node-a");
  EXPECT_EQ(verdict_line({{"doctor", kExitFailed, "doctor: GSP firmware"},
                          {"topo", kExitOk, "topology: 8 GPU(s)"},
                          {"gate", kExitFailed, "gate: BLOCKED"}},
                         "node-b"),
            "p2pcheck check: FAIL on node-b; doctor: GSP firmware; gate: BLOCKED");
}

}  // namespace
}  // namespace p2p::ci
