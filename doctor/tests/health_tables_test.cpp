// NVIDIA's published tables as the doctor keeps them: the Xid catalog, the minimum driver per CUDA
// release, the architectures and the driver branches that support them, and the driver's own
// explanations read back from split NVRM lines.
#include <gtest/gtest.h>

#include "doctor/health_facts.hpp"
#include "doctor/knowledge/driver_statements.hpp"
#include "doctor/knowledge/driver_tables.hpp"
#include "doctor/knowledge/gpu_generation.hpp"
#include "doctor/knowledge/xid_catalog.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;

TEST(XidCatalog, GivesMeaningSeverityAndNvidiasAction) {
  const XidInfo* dbe = find_xid(48);
  ASSERT_NE(dbe, nullptr);
  EXPECT_EQ(dbe->severity, XidSeverity::kFailing);
  EXPECT_EQ(dbe->action, XidAction::kMemoryWorkflow);
  EXPECT_EQ(find_xid(79)->action, XidAction::kRebootNode);
  EXPECT_EQ(find_xid(13)->severity, XidSeverity::kApplication);
  EXPECT_EQ(find_xid(45)->severity, XidSeverity::kInformational);
  EXPECT_EQ(find_xid(94)->severity, XidSeverity::kFailing) << "an uncorrectable memory error";
  EXPECT_EQ(find_xid(92)->severity, XidSeverity::kApplication) << "corrected errors warn";
  EXPECT_EQ(find_xid(40)->name, std::string("copy engine exception")) << "ranges of one kind";
  EXPECT_EQ(find_xid(147)->action, XidAction::kNvlinkWorkflow);
  EXPECT_EQ(find_xid(1), nullptr) << "unused in the catalog";
  EXPECT_EQ(find_xid(100000), nullptr);
  EXPECT_NE(
      xid_action_text(XidAction::kResetGpu, "0000:41:00.0").find("nvidia-smi -r -i 0000:41:00.0"),
      std::string::npos);
  EXPECT_STREQ(xid_action_name(XidAction::kRebootNode), "RESTART_BM");
}

TEST(XidCatalog, ReadsTheRecoveryActionXid154Names) {
  EXPECT_EQ(recovery_action_in_line("NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed "
                                    "from 0x0 (None) to 0x1 (GPU Reset Required)"),
            std::optional<int>(recovery_action::kGpuReset));
  EXPECT_EQ(recovery_action_in_line("... recovery action changed from 0x1 (GPU Reset Required) to "
                                    "0x2 (Node Reboot Required)"),
            std::optional<int>(recovery_action::kNodeReboot));
  EXPECT_EQ(recovery_action_in_line("... recovery action changed from 0x1 (x) to 0x0 (None)"),
            std::optional<int>(recovery_action::kNone));
  EXPECT_FALSE(
      recovery_action_in_line("NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus."));
  EXPECT_TRUE(
      nonfatal_nvlink_line("NVRM: Xid (PCI:0000:01:00): 144, SAW_MVB Nonfatal XC0 i0 Link 0"));
  EXPECT_FALSE(nonfatal_nvlink_line("NVRM: Xid (PCI:0000:00:00): 149, NETIR_LINK_EVT Fatal XC0"));
}

TEST(DriverTables, MinimumDriverPerCudaRelease) {
  EXPECT_EQ(min_driver_for_cuda(12010), std::optional<std::string>("530.30.02"));
  EXPECT_EQ(min_driver_for_cuda(13000), std::optional<std::string>("580.65.06"));
  EXPECT_EQ(min_driver_for_cuda(11080), std::optional<std::string>("520.61.05"));
  EXPECT_FALSE(min_driver_for_cuda(99000).has_value()) << "newer than the table: not guessed";
  EXPECT_EQ(min_driver_for_cuda_major(12090), std::optional<std::string>("525.60.13"));
  EXPECT_EQ(min_driver_for_cuda_major(11040), std::optional<std::string>("450.80.02"));
}

TEST(DriverTables, ArchitecturesAndTheBranchesThatSupportThem) {
  const ArchitectureSupport* k80 = architecture_of_device(0x102D);
  ASSERT_NE(k80, nullptr);
  EXPECT_STREQ(k80->architecture, "Kepler");
  EXPECT_EQ(k80->last_branch, 470);
  EXPECT_STREQ(architecture_of_device(0x06D2)->architecture, "Fermi");
  EXPECT_STREQ(architecture_of_device(0x1C81)->architecture, "Pascal");
  EXPECT_STREQ(architecture_of_device(0x1DB5)->architecture, "Volta") << "before Pascal's range";
  EXPECT_FALSE(architecture_of_device(0x1DB5)->open_module) << "no GSP";
  EXPECT_TRUE(architecture_of_device(0x2335)->open_module);
  EXPECT_TRUE(architecture_of_device(0x2BB5)->needs_open_module);
  EXPECT_EQ(architecture_of_device(0x2000), nullptr);
  EXPECT_STREQ(architecture_last_supported_by(390)->architecture, "Fermi");
  EXPECT_EQ(driver_branch("535.129.03"), std::optional<int>(535));
  EXPECT_FALSE(driver_branch("abc").has_value());
}

TEST(DriverTables, GenerationsComeFromTheSameTable) {
  EXPECT_EQ(generation_from_device_id(0x2335).name, "Hopper");
  EXPECT_EQ(generation_from_device_id(0x20B0).gsp_firmware, "gsp_tu10x.bin");
  EXPECT_EQ(generation_from_device_id(0x2684).name, "Ada");
  EXPECT_TRUE(generation_from_device_id(0x2B85).needs_open_module);
  EXPECT_EQ(generation_from_device_id(0x1B06).name, "pre-Turing");
  EXPECT_EQ(generation_from_device_id(0x0050).name, "pre-Turing") << "older than every range";
  EXPECT_FALSE(generation_from_device_id(0x2010).known);
}

TEST(DriverStatements, JoinTheDriversSentenceAndReadWhatItNeeds) {
  const Facts f = load_facts_file(test::fixture("aws-k80-legacy-470.json"));
  const auto s = driver_statements(f);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].kind, DriverStatement::Kind::kLegacyBranch);
  EXPECT_EQ(s[0].legacy_branch, std::optional<int>(470));
  EXPECT_EQ(s[0].gpu_name, std::optional<std::string>("Tesla K80"));
  EXPECT_EQ(s[0].driver, std::optional<std::string>("510.47.03"));
  EXPECT_EQ(s[0].gpus, (std::vector<std::string>{"0000:00:1e.0"})) << "by NVIDIA's legacy table";
  EXPECT_NE(s[0].quote.find("will ignore this GPU"), std::string::npos) << s[0].quote;
  EXPECT_TRUE(driver_refused_gpus(f));
  EXPECT_NE(refusal_fix(s[0]).find("470.256.02"), std::string::npos) << refusal_fix(s[0]);
}

TEST(DriverStatements, TheOpenModulesRefusalNamesItsGpu) {
  const Facts f = load_facts_file(test::fixture("gtx1070ti-open-module-second-gpu.json"));
  const auto s = statements_of(f, DriverStatement::Kind::kOpenModuleNoGsp);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].gpus, (std::vector<std::string>{"0000:02:00.0"}));
  EXPECT_NE(s[0].quote.find("System Processor (GSP)"), std::string::npos);
  EXPECT_TRUE(open_module_installed(f));
  EXPECT_EQ(installed_driver(f), std::optional<std::string>("560.35.03"));
}

TEST(DriverStatements, AResetRequestBeforeTheDriverWasReloadedIsHistory) {
  Facts f = load_facts_file(test::fixture("nv-err-reset-required.json"));
  ASSERT_EQ(statements_of(f, DriverStatement::Kind::kResetRequired).size(), 1u);
  f.kernel.log_lines.value.push_back(
      "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.133.20  Release Build");
  EXPECT_TRUE(statements_of(f, DriverStatement::Kind::kResetRequired).empty());
}

}  // namespace
