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
            "p2pcheck check: PASS — node-a");
  EXPECT_EQ(verdict_line({{"doctor", kExitFailed, "doctor: GSP firmware"},
                          {"topo", kExitOk, "topology: 8 GPU(s)"},
                          {"gate", kExitFailed, "gate: BLOCKED"}},
                         "node-b"),
            "p2pcheck check: FAIL — node-b; doctor: GSP firmware; gate: BLOCKED");
}

// A node that lost a GPU passes doctor, topology and gate: only the count it must have tells.
TEST(HealthVerdict, TheGpuCountFailsFewerOrMoreThanExpectedAndSaysWhenNoneWasGiven) {
  EXPECT_EQ(gpu_count_step(8, 0).line, "gpus: 8, any count (no --expect-gpus given)");
  EXPECT_EQ(gpu_count_step(8, 0).exit_code, kExitOk);
  EXPECT_EQ(gpu_count_step(8, 8).line, "gpus: 8 as expected");
  EXPECT_EQ(gpu_count_step(8, 8).exit_code, kExitOk);
  const HealthStep lost = gpu_count_step(7, 8);
  EXPECT_EQ(lost.exit_code, kExitFailed);
  EXPECT_EQ(lost.line.rfind("gpus: 7 of the 8 expected: a GPU is missing", 0), 0u) << lost.line;
  EXPECT_EQ(gpu_count_step(9, 8).line, "gpus: 9, more than the 8 expected");
  EXPECT_EQ(gpu_count_step(9, 8).exit_code, kExitFailed);
}

// Slurm's drain reason and node-problem-detector's message keep the first 200-odd characters:
// the brief line fits, with the failed check's id and its fix first.
TEST(HealthVerdict, TheBriefLineFitsUnder200CharactersWithTheCheckAndFixFirst) {
  const std::vector<doctor::Finding> findings = {
      finding("module.loaded", doctor::Status::kPass, "loaded"), [] {
        doctor::Finding f = finding("gsp.firmware_file", doctor::Status::kFail,
                                    "GSP firmware for Blackwell missing in /lib/firmware/nvidia");
        f.hint =
            "install the firmware package of driver 580.95.05 (nvidia-firmware-580) and "
            "reboot; a container needs it on the host, " +
            std::string(200, 'x');
        return f;
      }()};
  const std::vector<HealthStep> steps = {
      HealthStep{"doctor", kExitFailed, doctor_step_line("CUDA cannot work here", findings),
                 doctor_step_brief("CUDA cannot work here", findings)},
      gpu_count_step(7, 8)};
  const std::string line = brief_line(steps, "node17");
  EXPECT_LE(line.size(), kMaxBriefLine);
  EXPECT_EQ(line.rfind("p2pcheck check: FAIL — node17: doctor gsp.firmware_file: install the "
                       "firmware package",
                       0),
            0u)
      << line;
  EXPECT_EQ(line.substr(line.size() - 3), "...");
  EXPECT_EQ(brief_line({gpu_count_step(8, 8)}, "node17"), "p2pcheck check: PASS — node17");
  EXPECT_EQ(brief_line({gpu_count_step(7, 8)}, "node17"),
            "p2pcheck check: FAIL — node17: gpus: 7 of 8 expected: run p2pcheck doctor on the "
            "node");
}

TEST(HealthVerdict, TheBriefLineIsCutAtACharacterNotInsideOne) {
  const std::string e_acute = "\xC3\xA9";
  std::string many;
  while (many.size() < 400) many += e_acute;
  const std::string line = brief_line({HealthStep{"gate", kExitFailed, "gate: " + many, ""}}, "n");
  EXPECT_LE(line.size(), kMaxBriefLine);
  const std::string body = line.substr(0, line.size() - 3);
  EXPECT_EQ(body.substr(body.find("gate: ") + 6).size() % 2, 0u) << "a character cut in two";
}

}  // namespace
}  // namespace p2p::ci
