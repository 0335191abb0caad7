// Single rules, each driven by one change to the healthy bare-metal host.
#include <gtest/gtest.h>

#include "doctor/knowledge/codes.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
using test::judge_facts;

Facts healthy() { return load_facts_file(test::fixture("bare-metal-healthy.json")); }

TEST(Rules, EveryCuInitFailureIsNamedAndExplained) {
  for (int code : {3, 34, 46, 100, 101, 802, 803, 804, 999}) {
    Facts f = healthy();
    f.cuda.init_result = code;
    f.cuda.device_count.reset();
    f.cuda.devices.clear();
    const auto j = judge_facts(f);
    EXPECT_EQ(j.status("cuda.init"), Status::kFail) << code;
    EXPECT_TRUE(contains(j.at("cuda.init").summary, cu_result_name(code)))
        << j.at("cuda.init").summary;
    EXPECT_EQ(j.at("cuda.init").hint, cu_init_explanation(code));
    EXPECT_EQ(j.status("cuda.nvml_vs_cuinit"), Status::kFail) << "NVML works while cuInit fails";
    EXPECT_EQ(j.verdict.state, VerdictState::kBroken);
    EXPECT_FALSE(j.verdict.causes.empty())
        << "a failed cuInit always gets at least one candidate cause";
  }
}

TEST(Rules, DeviceUnavailableShowsAtContextCreation) {
  Facts f = healthy();
  f.cuda.devices[2].context_result = 46;
  f.nvml.devices[2].compute_mode = 3;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("cuda.init"), Status::kFail);
  EXPECT_TRUE(contains(j.at("cuda.init").summary, "GPU 2 context CUDA_ERROR_DEVICE_UNAVAILABLE"));
  EXPECT_EQ(j.status("compute_mode"), Status::kWarn);
}

TEST(Rules, CrashingOrHangingProbeIsAFailureNotACrash) {
  Facts f = healthy();
  f.cuda.status = ProbeStatus::kCrashed;
  f.cuda.detail = "SIGSEGV (stopped inside cuInit)";
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("cuda.init"), Status::kFail);
  EXPECT_TRUE(j.has_cause("cuda_probe_crashed"));
}

TEST(Rules, GpuLeftOnVfioPci) {
  Facts f = healthy();
  f.pci.value[1].driver.value = "vfio-pci";
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("module.binding"), Status::kFail);
  EXPECT_TRUE(contains(j.at("module.binding").summary, "vfio-pci"));
  EXPECT_TRUE(contains(j.at("module.binding").hint, "vfio-pci.ids="));
  EXPECT_TRUE(j.has_cause("vfio_bound"));
}

TEST(Rules, IdleSpeedDowntrainingIsANoteButANarrowLinkIsAFault) {
  Facts f = healthy();
  f.pci.value[0].current_link_gts = 2.5;
  auto j = judge_facts(f);
  EXPECT_EQ(j.status("pcie.link"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("pcie.link").summary, "idle GPUs downtrain"));
  f.pci.value[0].current_link_width = 4;
  j = judge_facts(f);
  EXPECT_EQ(j.status("pcie.link"), Status::kFail);
}

TEST(Rules, SmallBar1CripplesP2p) {
  Facts f = healthy();
  f.nvml.devices[3].bar1_total_bytes = 256ull << 20;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("bar1"), Status::kFail);
  EXPECT_TRUE(contains(j.at("bar1").summary, "256 MiB"));
  EXPECT_TRUE(j.has_cause("bar1"));
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
}

TEST(Rules, ComputeModeProhibitedFails) {
  Facts f = healthy();
  f.nvml.devices[0].compute_mode = 2;
  EXPECT_EQ(judge_facts(f).status("compute_mode"), Status::kFail);
}

TEST(Rules, EmptyCudaVisibleDevicesHidesEveryGpu) {
  Facts f = healthy();
  f.env["CUDA_VISIBLE_DEVICES"] = "-1";
  f.cuda.init_result = 100;
  f.cuda.device_count.reset();
  f.cuda.devices.clear();
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("env"), Status::kFail);
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "visible_devices");
}

TEST(Rules, NcclP2pDisableIsReported) {
  Facts f = healthy();
  f.env["NCCL_P2P_DISABLE"] = "1";
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("env"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("env").summary, "NCCL_P2P_DISABLE=1"));
}

TEST(Rules, GspTurnedOffByParameterOnTheOpenModule) {
  Facts f = healthy();
  f.kernel.params.value["EnableGpuFirmware"] = "0";
  for (auto& i : f.gpu_information.value) i.gsp_firmware = "N/A";
  f.cuda.init_result = 3;
  f.cuda.device_count.reset();
  f.cuda.devices.clear();
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("module.params"), Status::kFail);
  EXPECT_EQ(j.status("gsp.state"), Status::kFail);
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "gsp_firmware");
  EXPECT_TRUE(contains(j.verdict.causes[0].evidence.front(), "EnableGpuFirmware=0"));
}

TEST(Rules, ForceP2pOffInRegistryDwords) {
  Facts f = healthy();
  f.kernel.params.value["RegistryDwords"] = "\"ForceP2P=0x0;RMPcieP2PType=2\"";
  for (auto& p : f.nvml.pairs) p.read = p.write = 4;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("module.params"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("module.params").summary, "ForceP2P=0x0"));
  EXPECT_EQ(j.status("p2p.status"), Status::kFail);
  EXPECT_TRUE(contains(j.at("p2p.status").summary, "DISABLED_BY_REGKEY"));
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "p2p_regkey");
}

TEST(Rules, DriverApiOlderThanTheRuntime) {
  Facts f = healthy();
  f.cuda.driver_version = 12040;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("versions.cuda_api"), Status::kFail);
  EXPECT_TRUE(contains(j.at("versions.cuda_api").summary, "cudaErrorInsufficientDriver (35)"));
}

TEST(Rules, CompatLibraryOnAnUnsupportedGpu) {
  Facts f = healthy();
  f.cuda.library_path = "/usr/local/cuda-13.0/compat/libcuda.so.580.95.05";
  f.kernel.module_version.value = "570.133.20";
  f.cuda.init_result = 804;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("cuda.library"), Status::kFail);
  EXPECT_TRUE(j.has_cause("compat_library"));
  EXPECT_NE(j.status("versions.userspace"), Status::kPass);
}

TEST(Rules, PermissionDeniedOpensPointAtTheCgroup) {
  Facts f = healthy();
  for (auto& n : f.device_nodes.value)
    if (n.path == "/dev/nvidia-uvm") n.open_rdwr = OpenResult::failed("EPERM");
  f.cuda.init_result = 999;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("devices.open"), Status::kFail);
  EXPECT_EQ(j.status("cgroup"), Status::kFail);
  EXPECT_TRUE(j.has_cause("device_access"));
  EXPECT_FALSE(j.ruled_out_starts_with("device permissions and cgroups ruled out"));
  // The fix names the UVM node's real major, not a placeholder.
  EXPECT_TRUE(contains(j.at("cgroup").hint, "c 510:* rwm")) << j.at("cgroup").hint;
  EXPECT_FALSE(contains(j.at("cgroup").hint, "c 195:* rwm")) << "the nvidia nodes opened";
}

TEST(Rules, AnLxcDenyingTheUvmNodeGetsItsOwnConfigLine) {
  Facts f = healthy();
  f.environment.pid1_container = "lxc";
  f.kernel.char_majors.value["nvidia-uvm"] = 511;
  for (auto& n : f.device_nodes.value)
    if (n.path.rfind("/dev/nvidia-uvm", 0) == 0) {
      n.major = 511;
      n.open_rdwr = OpenResult::failed("EPERM");
    }
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("cgroup"), Status::kFail);
  EXPECT_TRUE(contains(j.at("cgroup").hint, "lxc.cgroup2.devices.allow: c 511:* rwm"))
      << j.at("cgroup").hint;
  EXPECT_TRUE(contains(j.at("devices.open").hint, "nvidia-uvm is major 511 on this host"))
      << j.at("devices.open").hint;
}

TEST(Rules, CgroupV1DevicesListWithoutTheUvmMajor) {
  Facts f = healthy();
  f.cgroup.hierarchy = "v1";
  f.cgroup.v1_devices_path = "/lxc/101";
  f.cgroup.devices_list = Observed<std::string>::of("c 195:* rwm\nc 1:3 rwm");
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("cgroup"), Status::kFail);
  EXPECT_TRUE(contains(j.at("cgroup").summary, "c 510:* rwm"));
  f.cgroup.devices_list = Observed<std::string>::of("a *:* rwm");
  EXPECT_EQ(judge_facts(f).status("cgroup"), Status::kPass);
}

TEST(Rules, UnreadableIsUnknownNotAbsent) {
  Facts f = healthy();
  f.kernel.modules = Observed<std::vector<std::string>>::unreadable("EACCES");
  f.kernel.sys_module_nvidia = Observed<bool>::unreadable("EACCES");
  f.kernel.nvidia_version_text = Observed<std::string>::unreadable("EACCES");
  EXPECT_EQ(judge_facts(f).status("module.loaded"), Status::kUnknown);
  f.kernel.modules = Observed<std::vector<std::string>>::of({"nvidia_uvm"});
  f.kernel.sys_module_nvidia = Observed<bool>::missing();
  f.kernel.nvidia_version_text = Observed<std::string>::missing();
  EXPECT_EQ(judge_facts(f).status("module.loaded"), Status::kFail);
}

TEST(Rules, AcsBitsThatRedirectAndBitsThatDoNot) {
  Facts f = healthy();
  f.pci.value[0].upstream[2].acs_control.value = 0x01;  // source validation only
  EXPECT_EQ(judge_facts(f).status("pcie.acs"), Status::kPass);
  f.pci.value[0].upstream[2].acs_control.value = 0x20;  // egress control
  EXPECT_EQ(judge_facts(f).status("pcie.acs"), Status::kFail);
  f.pci.value[0].upstream[2].acs_control =
      Observed<int>::unreadable("config space cut at 64 bytes");
  f.pci.value[0].upstream[2].acs_control.seen = Seen::kUnreadable;
  EXPECT_EQ(judge_facts(f).status("pcie.acs"), Status::kUnknown);
}

TEST(Rules, KernelLogSignaturesAreRecognised) {
  Facts f = healthy();
  f.kernel.log_lines.value.push_back(
      "NVRM: GPU 0000:18:00.0: RmInitAdapter failed! (0x62:0x65:2083)");
  f.kernel.log_lines.value.push_back(
      "NVRM: kgspBootstrap_IMPL: unexpected WPR2 already up, cannot proceed with booting GSP");
  f.gpu_information.value[0].gsp_firmware = "N/A";
  f.cuda.init_result = 3;
  f.cuda.device_count.reset();
  f.cuda.devices.clear();
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("kernel.log"), Status::kFail);
  EXPECT_TRUE(contains(j.at("kernel.log").summary, "RmInitAdapter"));
  EXPECT_TRUE(contains(j.at("kernel.log").hint, "reset or cold-boot"));
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "gsp_firmware");
  EXPECT_TRUE(contains(j.verdict.causes[0].fix, "WPR2 already up"));
}

TEST(Rules, OldLogFailuresOnAWorkingHostAreHistory) {
  // The kernel log outlives the failure: a host where GSP runs and CUDA initialises is not broken
  // by a firmware-load line from an earlier boot attempt or an HMM failure before the fix.
  Facts f = healthy();
  f.kernel.log_lines.value.push_back(
      "nvidia 0000:18:00.0: Direct firmware load for nvidia/580.95.05/gsp_ga10x.bin failed with error -2");
  f.kernel.log_lines.value.push_back(
      "nvidia-uvm: uvm_pmm_gpu.c:3408 devmem_alloc_pagemap[pid:77] request_free_mem_region() err -34");
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("kernel.log"), Status::kWarn);
  EXPECT_EQ(j.status("uvm.hmm"), Status::kWarn);
  EXPECT_FALSE(j.has_cause("gsp_firmware"));
  EXPECT_FALSE(j.has_cause("uvm_hmm"));
  EXPECT_EQ(j.verdict.state, VerdictState::kAtRisk)
      << "a warning: \"healthy\" is said only without one";
  EXPECT_TRUE(j.ruled_out_starts_with(
      "GSP firmware ruled out: GSP 580.95.05 running on all 4 GPU(s); the firmware"));
}

TEST(Rules, NvswitchWithCompletedFabricPasses) {
  Facts f = load_facts_file(test::fixture("nvswitch-no-fabric-manager.json"));
  for (auto& d : f.nvml.devices) {
    d.fabric_state = 3;
    d.fabric_status = 0;
  }
  f.daemons.value.push_back("nv-fabricmanager");
  f.cuda.init_result = 0;
  EXPECT_EQ(judge_facts(f).status("fabric_manager"), Status::kPass);
}

TEST(Rules, MigCapabilityNodesWithAStaleMajor) {
  Facts f = healthy();
  for (auto& n : f.device_nodes.value)
    if (n.path == "/dev/nvidia-caps/nvidia-cap1") n.major = 241;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("devices.nodes"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("devices.nodes").summary,
                       "/dev/nvidia-caps/nvidia-cap1 major 241, /proc/devices says 237"));
}

TEST(Rules, MissingFirmwareIsAFaultOnlyWhereGspIsRequired) {
  Facts f = healthy();
  f.firmware.gsp_files = Observed<std::vector<std::string>>::missing();
  for (auto& i : f.gpu_information.value) i.gsp_firmware = "N/A";
  EXPECT_EQ(judge_facts(f).status("gsp.firmware_file"), Status::kFail)
      << "open module: GSP is mandatory";
  f.kernel.nvidia_version_text.value =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Release Build";
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kPass) << j.at("gsp.firmware_file").summary;
  EXPECT_EQ(j.status("gsp.state"), Status::kPass);
}

TEST(Rules, PersistenceOffIsAWarning) {
  Facts f = healthy();
  f.nvml.devices[1].persistence_mode = 0;
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("persistence"), Status::kWarn);
  EXPECT_EQ(exit_code_of(j.findings), 0);
}

}  // namespace
