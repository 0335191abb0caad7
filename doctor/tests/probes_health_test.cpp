// The health half of the live NVML probe against the stand-in libnvidia-ml.so.1
// (tests/fake_driver/fake_libnvml_health.cpp): each query reaches the facts, "not supported" stays
// null, and a GPU NVML has lost is on record with NVML's own return code.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "doctor/collect/probes.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/verdict/verdict.hpp"

namespace {

using namespace p2p::doctor;

class HealthProbe : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("P2P_FAKE_NVML_HEALTH");
    ::unsetenv("P2P_FAKE_NVML_LOST");
    ::unsetenv("P2P_FAKE_NVML_PROCS");
  }
  static NvmlProbe probe() { return probe_nvml(20000, P2P_FAKE_LIBNVML); }
};

TEST_F(HealthProbe, AHealthyGpuAnswersEveryQueryWithNoErrors) {
  const NvmlProbe p = probe();
  ASSERT_EQ(p.devices.size(), 2u) << p.detail;
  ASSERT_TRUE(p.devices[0].health.has_value());
  const NvmlHealth& h = *p.devices[0].health;
  EXPECT_TRUE(h.query_errors.empty());
  EXPECT_EQ(h.ecc_mode_current, std::optional<bool>(true));
  EXPECT_EQ(h.ecc_volatile_uncorrected, std::optional<std::uint64_t>(0));
  EXPECT_EQ(h.ecc_aggregate_corrected, std::optional<std::uint64_t>(0));
  EXPECT_EQ(h.remapped_rows_pending, std::optional<bool>(false));
  EXPECT_EQ(h.remapped_rows_failed, std::optional<bool>(false));
  EXPECT_FALSE(h.retired_pages_double_bit.has_value()) << "not supported on this GPU: null";
  EXPECT_FALSE(h.retired_pages_pending.has_value());
  EXPECT_EQ(h.recovery_action, std::optional<int>(0));
  ASSERT_TRUE(h.processes.has_value());
  EXPECT_TRUE(h.processes->empty());
  EXPECT_EQ(h.clock_event_reasons, std::optional<std::uint64_t>(0x1));
  EXPECT_EQ(h.temperature_c, std::optional<int>(35));
  EXPECT_EQ(h.temperature_slowdown_c, std::optional<int>(90));
  EXPECT_EQ(h.temperature_shutdown_c, std::optional<int>(95));
  EXPECT_EQ(h.power_limit_mw, std::optional<std::uint64_t>(700000));
  EXPECT_EQ(h.mig_mode_current, std::optional<bool>(false));
  EXPECT_FALSE(h.vgpu_licensed.has_value()) << "bare metal: no vGPU licence to hold";
}

TEST_F(HealthProbe, AFailingGpuShowsItsErrorsTheRemapAndTheResetItAsksFor) {
  ::setenv("P2P_FAKE_NVML_HEALTH", "failing", 1);
  const NvmlProbe p = probe();
  ASSERT_EQ(p.devices.size(), 2u) << p.detail;
  const NvmlHealth& bad = *p.devices[1].health;
  EXPECT_EQ(bad.ecc_volatile_uncorrected, std::optional<std::uint64_t>(3));
  EXPECT_EQ(bad.ecc_aggregate_uncorrected, std::optional<std::uint64_t>(5));
  EXPECT_EQ(bad.ecc_volatile_corrected, std::optional<std::uint64_t>(120));
  EXPECT_EQ(bad.remapped_rows_uncorrectable, std::optional<std::uint64_t>(2));
  EXPECT_EQ(bad.remapped_rows_pending, std::optional<bool>(true));
  EXPECT_EQ(bad.recovery_action, std::optional<int>(recovery_action::kGpuReset));
  EXPECT_EQ(bad.pcie_replay_count, std::optional<std::uint64_t>(17));
  EXPECT_EQ(bad.clock_event_reasons, std::optional<std::uint64_t>(0x88));
  EXPECT_EQ(bad.clock_event_ns.at("hw_power_brake"), 5000000000ull);
  EXPECT_EQ(p.devices[0].health->ecc_volatile_uncorrected, std::optional<std::uint64_t>(0))
      << "the other GPU stays clean";
}

TEST_F(HealthProbe, QueriesAnOldDriverDoesNotSupportStayNullNotErrors) {
  ::setenv("P2P_FAKE_NVML_HEALTH", "unsupported", 1);
  const NvmlHealth h = *probe().devices[0].health;
  EXPECT_TRUE(h.query_errors.empty());
  EXPECT_FALSE(h.ecc_mode_current.has_value());
  EXPECT_FALSE(h.ecc_volatile_uncorrected.has_value());
  EXPECT_FALSE(h.remapped_rows_pending.has_value());
  EXPECT_FALSE(h.recovery_action.has_value());
  EXPECT_TRUE(h.clock_event_ns.empty());
  EXPECT_FALSE(h.mig_mode_current.has_value());
}

TEST_F(HealthProbe, ProcessesHoldingAGpuComeWithTheirNames) {
  const unsigned pid = static_cast<unsigned>(::getpid());
  ::setenv("P2P_FAKE_NVML_PROCS", (std::to_string(pid) + ":compute:1048576").c_str(), 1);
  const NvmlHealth h = *probe().devices[0].health;
  ASSERT_TRUE(h.processes.has_value());
  ASSERT_EQ(h.processes->size(), 1u);
  const NvmlProcess& p = h.processes->front();
  EXPECT_EQ(p.pid, pid);
  EXPECT_EQ(p.kind, "compute");
  EXPECT_EQ(p.used_memory_bytes, std::optional<std::uint64_t>(1048576));
  std::string comm;
  std::getline(std::ifstream("/proc/self/comm"), comm);
  EXPECT_EQ(p.name, std::optional<std::string>(comm));
}

TEST_F(HealthProbe, AGpuNvmlHasLostIsRecordedWithNvmlsReturnCode) {
  ::setenv("P2P_FAKE_NVML_LOST", "1", 1);
  const NvmlProbe p = probe();
  ASSERT_EQ(p.devices.size(), 2u) << p.detail;
  EXPECT_EQ(p.devices[1].pci_bus_id, "") << "a lost GPU cannot name its bus id";
  ASSERT_TRUE(p.devices[1].health.has_value());
  EXPECT_EQ(p.devices[1].health->query_errors.at("nvmlDeviceGetHandleByIndex"), 15);
  EXPECT_TRUE(p.pairs.empty()) << "no pair can be asked about without both handles";
  EXPECT_EQ(p.devices[0].pci_bus_id, "0000:41:00.0");
}

TEST_F(HealthProbe, TheDoctorFailsAndNamesTheGpuTheLiveProbeFoundFailing) {
  ::setenv("P2P_FAKE_NVML_HEALTH", "failing", 1);
  Facts f;
  f.nvml = probe();
  const auto findings = judge(f);
  const Verdict v = conclude(f, findings);
  const Finding* memory = find_finding(findings, "gpu.memory");
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(memory->status, Status::kFail) << memory->summary;
  EXPECT_EQ(v.failing_gpus, (std::vector<std::string>{"0000:61:00.0"}));
  EXPECT_EQ(v.state, VerdictState::kUnhealthy) << v.headline;
  EXPECT_EQ(exit_code_of(findings), 1);
  EXPECT_EQ(find_finding(findings, "gpu.throttle")->status, Status::kWarn);
}

TEST_F(HealthProbe, TheSameLiveProbeOnHealthyGpusLeavesNoFailure) {
  Facts f;
  f.nvml = probe();
  const auto findings = judge(f);
  EXPECT_EQ(find_finding(findings, "gpu.memory")->status, Status::kPass);
  EXPECT_EQ(find_finding(findings, "gpu.recovery")->status, Status::kPass);
  EXPECT_TRUE(conclude(f, findings).failing_gpus.empty());
}

}  // namespace
