// The health rules on a healthy host given NVML health facts one at a time: a failing GPU fails
// acceptance and is named even where CUDA initialises; corrected errors and throttling warn with
// their counts; history, application errors and facts saved before health facts do not fail.
#include <gtest/gtest.h>

#include "doctor/render.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
using test::judge_facts;

constexpr const char* kHealthyHost = "bare-metal-healthy.json";
constexpr const char* kSecondGpu = "0000:19:00.0";

Facts healthy_with_facts() {
  Facts f = load_facts_file(test::fixture(kHealthyHost));
  for (auto& d : f.nvml.devices) {
    NvmlHealth h;
    h.ecc_mode_current = h.ecc_mode_pending = true;
    h.ecc_volatile_corrected = h.ecc_volatile_uncorrected = 0;
    h.ecc_aggregate_corrected = h.ecc_aggregate_uncorrected = 0;
    h.remapped_rows_correctable = h.remapped_rows_uncorrectable = 0;
    h.remapped_rows_pending = h.remapped_rows_failed = false;
    h.recovery_action = recovery_action::kNone;
    h.processes = std::vector<NvmlProcess>{};
    h.clock_event_reasons = clock_event::kGpuIdle;
    h.pcie_replay_count = 0;
    d.health = h;
  }
  return f;
}

NvmlHealth& second(Facts& f) { return *f.nvml.devices[1].health; }

TEST(HealthRules, FactsSavedBeforeHealthFactsAreJudgedAsBefore) {
  const auto j = test::judge_fixture(kHealthyHost);
  EXPECT_EQ(j.status("gpu.memory"), Status::kSkip);
  EXPECT_EQ(j.status("gpu.recovery"), Status::kSkip);
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy);
  EXPECT_TRUE(j.verdict.failing_gpus.empty());
  EXPECT_EQ(exit_code_of(j.findings), 0);
}

TEST(HealthRules, CleanHealthFactsRuleOutAFailingGpu) {
  const auto j = judge_facts(healthy_with_facts());
  EXPECT_EQ(j.status("gpu.memory"), Status::kPass);
  EXPECT_EQ(j.status("gpu.recovery"), Status::kPass);
  EXPECT_EQ(j.status("gpu.xid"), Status::kPass);
  EXPECT_EQ(j.status("gpu.processes"), Status::kPass);
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy);
  EXPECT_TRUE(j.ruled_out_starts_with("failing GPU ruled out"));
}

TEST(HealthRules, UncorrectableErrorsFailTheGpuThoughCudaInitialises) {
  Facts f = healthy_with_facts();
  second(f).ecc_volatile_uncorrected = 3;
  second(f).ecc_aggregate_uncorrected = 3;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("cuda.init"), Status::kPass) << "CUDA initialises on every GPU";
  EXPECT_EQ(j.status("gpu.memory"), Status::kFail);
  EXPECT_EQ(j.verdict.state, VerdictState::kUnhealthy);
  EXPECT_EQ(j.verdict.failing_gpus, (std::vector<std::string>{kSecondGpu}));
  EXPECT_TRUE(contains(j.verdict.headline, kSecondGpu)) << j.verdict.headline;
  EXPECT_EQ(test::top(j).id, "gpu_memory");
  EXPECT_EQ(exit_code_of(j.findings), 1);
  const auto json = render_verdict_json(j.facts, j.findings, j.verdict);
  EXPECT_EQ(json["verdict"]["failing_gpus"], nlohmann::json::array({kSecondGpu}));
  EXPECT_EQ(json["exit_code"], 1);
}

TEST(HealthRules, CorrectedErrorsAndThrottlingWarnWithTheirCounts) {
  Facts f = healthy_with_facts();
  second(f).ecc_volatile_corrected = 120;
  second(f).ecc_aggregate_corrected = 4821;
  second(f).clock_event_reasons = clock_event::kHwSlowdown | clock_event::kHwPowerBrakeSlowdown;
  second(f).clock_event_ns["hw_power_brake"] = 5000000000ull;
  second(f).pcie_replay_count = 170;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("gpu.memory"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("gpu.memory").summary, "120 corrected")) << j.at("gpu.memory").summary;
  EXPECT_TRUE(contains(j.at("gpu.memory").summary, "4821")) << j.at("gpu.memory").summary;
  EXPECT_EQ(j.status("gpu.throttle"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("gpu.throttle").summary, "HW slowdown"));
  bool five_seconds = false;
  for (const auto& e : j.at("gpu.throttle").evidence) five_seconds |= contains(e, "5.0 s");
  EXPECT_TRUE(five_seconds);
  EXPECT_EQ(j.status("gpu.pcie_replay"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("gpu.pcie_replay").summary, "170 PCIe replay"));
  EXPECT_EQ(j.verdict.state, VerdictState::kAtRisk)
      << "a warning: \"healthy\" is said only without one";
  EXPECT_EQ(exit_code_of(j.findings), 0);
}

// The healthy H200 this was run on had counted 1 replay since the driver loaded: listed, but no
// warning (and no "reseat the GPU") for a link that recovered from one packet.
TEST(HealthRules, AFewReplaysPassWithTheirCount) {
  Facts f = healthy_with_facts();
  second(f).pcie_replay_count = 1;
  auto j = judge_facts(f);
  EXPECT_EQ(j.status("gpu.pcie_replay"), Status::kPass);
  EXPECT_TRUE(contains(j.at("gpu.pcie_replay").summary, "1 PCIe replay(s)"))
      << j.at("gpu.pcie_replay").summary;
  second(f).pcie_replay_count = 99;
  EXPECT_EQ(judge_facts(f).status("gpu.pcie_replay"), Status::kPass);
  second(f).pcie_replay_count = 100;
  EXPECT_EQ(judge_facts(f).status("gpu.pcie_replay"), Status::kWarn);
}

TEST(HealthRules, AFailedRemapCallsForReplacement) {
  Facts f = healthy_with_facts();
  second(f).remapped_rows_failed = true;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("gpu.memory"), Status::kFail);
  EXPECT_TRUE(contains(test::top(j).fix, "replace " + std::string(kSecondGpu) + " (RMA)"))
      << test::top(j).fix;
}

TEST(HealthRules, TheRecoveryNvmlAsksForFailsAndIsTheFix) {
  Facts f = healthy_with_facts();
  second(f).recovery_action = recovery_action::kNodeReboot;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("gpu.recovery"), Status::kFail);
  EXPECT_EQ(test::top(j).id, "gpu_reset_required");
  EXPECT_TRUE(contains(test::top(j).fix, "reboot the node")) << test::top(j).fix;
  EXPECT_EQ(j.verdict.failing_gpus, (std::vector<std::string>{kSecondGpu}));
}

TEST(HealthRules, AFailingXidBeforeTheDriverWasReloadedIsHistory) {
  Facts f = healthy_with_facts();
  f.kernel.log_lines = Observed<std::vector<std::string>>::of(
      {"NVRM: Xid (PCI:0000:19:00): 48, pid=7, name=python, An uncorrectable double bit error",
       "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build"});
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("gpu.xid"), Status::kPass) << j.at("gpu.xid").summary;
  EXPECT_TRUE(contains(j.at("gpu.xid").evidence.at(0), "before the driver was loaded again"));
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy);
  f.kernel.log_lines.value.pop_back();  // the same Xid with no reload after it: current
  const auto now = judge_facts(f);
  EXPECT_EQ(now.status("gpu.xid"), Status::kFail);
  EXPECT_EQ(test::top(now).id, "gpu_memory");
  EXPECT_EQ(now.verdict.failing_gpus, (std::vector<std::string>{kSecondGpu}));
}

TEST(HealthRules, AnApplicationsXidWarnsAndLeavesTheGpuHealthy) {
  Facts f = healthy_with_facts();
  f.kernel.log_lines = Observed<std::vector<std::string>>::of(
      {"NVRM: Xid (PCI:0000:19:00): 13, pid=8, name=python, Graphics Exception: ESR 0x514648"});
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("gpu.xid"), Status::kWarn);
  EXPECT_EQ(test::top(j).id, "application_xid");
  EXPECT_EQ(j.verdict.state, VerdictState::kAtRisk)
      << "a warning: \"healthy\" is said only without one";
  EXPECT_EQ(exit_code_of(j.findings), 0);
}

TEST(HealthRules, ADriverThatExplainsItselfIsNeverToldToInstallTheDriver) {
  for (const char* name :
       {"aws-k80-legacy-470.json", "gt710-legacy-470.json", "tesla-m2070-legacy-390.json",
        "gtx1050-legacy-580.json", "gt1030-open-module-560.json",
        "gtx1070ti-open-module-second-gpu.json"}) {
    const auto j = test::judge_fixture(name);
    EXPECT_FALSE(j.has_cause("no_driver")) << name;
    for (const auto& x : j.findings)
      EXPECT_FALSE(contains(x.hint, "install the NVIDIA driver")) << name << " " << x.id;
    for (const auto& c : j.verdict.causes)
      EXPECT_FALSE(contains(c.fix, "install the NVIDIA driver")) << name << " " << c.id;
    EXPECT_TRUE(contains(test::top(j).evidence.at(0), "the driver says: NVRM: The NVIDIA"))
        << name << ": the verdict quotes the driver";
  }
}

TEST(HealthRules, NvidiasTablesCatchALegacyGpuTheLogDoesNotExplain) {
  Facts f = load_facts_file(test::fixture("aws-k80-legacy-470.json"));
  f.kernel.log_lines = Observed<std::vector<std::string>>::unreadable("EPERM");
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("driver.refused"), Status::kSkip);
  EXPECT_EQ(j.status("driver.gpu_support"), Status::kFail);
  EXPECT_TRUE(contains(j.at("driver.gpu_support").summary, "0000:00:1e.0"));
  ASSERT_TRUE(j.has_cause("driver_unsupported_gpu"));
  const auto& c = j.verdict.causes.at(j.cause_rank("driver_unsupported_gpu"));
  EXPECT_TRUE(contains(c.fix, "470.256.02")) << c.fix;
}

}  // namespace
