// One test per facts fixture: the findings that tell the story and the verdict it must reach.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
using test::judge_facts;
using test::judge_fixture;

constexpr const char* kPermissionsRuledOut =
    "device permissions and cgroups ruled out: /dev/nvidia* opened read-write";

TEST(Fixture, LxcStoryWithFirmwareMissingConcludesGspFirmware) {
  const auto j = judge_fixture("lxc-gsp-firmware-missing.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kBroken);
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "gsp_firmware");
  EXPECT_EQ(j.verdict.causes[0].title, "GSP firmware / kernel-driver support");
  EXPECT_EQ(j.verdict.causes[0].confidence, "confirmed");
  EXPECT_TRUE(
      contains(j.verdict.headline, "Most likely root cause: GSP firmware / kernel-driver support"));
  // The HMM trap fits cuInit = 3 too, but the firmware evidence outranks it.
  EXPECT_GT(j.cause_rank("uvm_hmm"), j.cause_rank("gsp_firmware"));
  EXPECT_TRUE(j.ruled_out_starts_with(kPermissionsRuledOut));
  EXPECT_FALSE(j.has_cause("device_access"));
  EXPECT_EQ(j.status("devices.open"), Status::kPass);
  EXPECT_EQ(j.status("cgroup"), Status::kPass);
  EXPECT_TRUE(contains(j.at("cgroup").summary, "eBPF"));
  // In a container the firmware verdict rests on the kernel log, and says so.
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kFail);
  EXPECT_TRUE(contains(j.at("gsp.firmware_file").summary,
                       "kernel log shows the GSP firmware load failing"));
  EXPECT_EQ(j.status("gsp.state"), Status::kFail);
  EXPECT_EQ(j.status("cuda.nvml_vs_cuinit"), Status::kFail);
  EXPECT_TRUE(contains(j.at("cuda.init").summary, "CUDA_ERROR_NOT_INITIALIZED"));
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitFailed);
}

TEST(Fixture, SameSymptomsWithFirmwarePresentAndHmmSignatureConcludeUvmHmm) {
  const auto j = judge_fixture("lxc-hmm-kaslr.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kBroken);
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "uvm_hmm");
  EXPECT_EQ(j.verdict.causes[0].confidence, "confirmed");
  EXPECT_TRUE(contains(j.verdict.headline, "UVM/HMM (KASLR)"));
  EXPECT_FALSE(j.has_cause("gsp_firmware"));
  EXPECT_TRUE(
      j.ruled_out_starts_with("GSP firmware ruled out: GSP 590.48.01 running on all 8 GPU(s)"));
  EXPECT_TRUE(j.ruled_out_starts_with(kPermissionsRuledOut));
  EXPECT_EQ(j.status("uvm.hmm"), Status::kFail);
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kPass);
  EXPECT_TRUE(contains(j.verdict.causes[0].fix, "uvm_disable_hmm=1"));
}

TEST(Fixture, ContainerThatCannotSeeTheHostFirmwareSaysSoInsteadOfClaimingItMissing) {
  const auto j = judge_fixture("lxc-firmware-not-visible.json");
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kUnknown);
  EXPECT_TRUE(contains(j.at("gsp.firmware_file").summary, "not visible from this container"));
  EXPECT_EQ(j.status("kernel.log"), Status::kUnknown);
  // Each GPU has a root port of its own and the GPUs meet in the root complex, where redirection on
  // those root ports sends their requests to the IOMMU: ACS words the container cannot read are
  // unknown, not harmless.
  EXPECT_EQ(j.status("pcie.acs"), Status::kUnknown);
  EXPECT_TRUE(contains(j.at("pcie.acs").summary, "ACS of 8 bridge(s) unreadable"))
      << j.at("pcie.acs").summary;
  ASSERT_GE(j.verdict.causes.size(), 2u);
  EXPECT_EQ(j.verdict.causes[0].id, "uvm_hmm");
  EXPECT_EQ(j.verdict.causes[0].confidence, "likely");
  EXPECT_EQ(j.verdict.causes[1].id, "gsp_firmware");
  EXPECT_EQ(j.verdict.causes[1].confidence, "possible");
  std::set<std::string> unverified;
  for (const auto& u : j.verdict.unverified) unverified.insert(u.substr(0, u.find(':')));
  EXPECT_EQ(unverified.count("gsp.firmware_file"), 1u);
  EXPECT_EQ(unverified.count("kernel.log"), 1u);
}

TEST(Fixture, VfioVmHasHealthyCudaAndExpectedlyNoP2p) {
  const auto j = judge_fixture("vfio-vm.json");
  EXPECT_EQ(j.status("cuda.init"), Status::kPass);
  EXPECT_EQ(j.status("nvml.init"), Status::kPass);
  EXPECT_EQ(j.status("p2p.status"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("p2p.status").summary, "CHIPSET_NOT_SUPPORTED"));
  EXPECT_TRUE(contains(j.at("p2p.status").summary, "PHB on every pair"));
  EXPECT_TRUE(contains(j.at("environment").summary, "pass-through"));
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "vm_p2p");
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitOk);
}

TEST(Fixture, HealthyBareMetalPassesEveryCheckThatApplies) {
  const auto j = judge_fixture("bare-metal-healthy.json");
  for (const auto& f : j.findings)
    EXPECT_TRUE(f.status == Status::kPass || f.status == Status::kSkip)
        << f.id << ": " << f.summary;
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy);
  EXPECT_TRUE(j.verdict.causes.empty());
  EXPECT_TRUE(contains(j.verdict.headline, "CUDA works on 4 GPU(s)"));
  EXPECT_TRUE(contains(j.at("p2p.status").summary, "all 6 pair(s)"));
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitOk);
}

TEST(Fixture, ProprietaryModuleOnBlackwell) {
  const auto j = judge_fixture("proprietary-blackwell.json");
  EXPECT_EQ(j.status("module.flavour"), Status::kFail);
  EXPECT_TRUE(contains(j.at("module.flavour").summary,
                       "proprietary kernel module with 1 Blackwell GPU(s)"));
  EXPECT_EQ(j.status("gsp.state"), Status::kPass)
      << "GSP off on the A6000 is allowed with the proprietary module";
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "proprietary_blackwell");
  EXPECT_EQ(j.status("module.binding"), Status::kFail);
}

TEST(Fixture, NvidiaUvmNotLoaded) {
  const auto j = judge_fixture("uvm-not-loaded.json");
  EXPECT_EQ(j.status("module.uvm"), Status::kFail);
  EXPECT_EQ(j.status("uvm.major"), Status::kSkip);
  EXPECT_TRUE(contains(j.at("cuda.init").summary, "999 CUDA_ERROR_UNKNOWN"));
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "uvm_missing");
}

TEST(Fixture, WrongUvmMajorInAContainer) {
  const auto j = judge_fixture("container-uvm-major.json");
  EXPECT_EQ(j.status("uvm.major"), Status::kFail);
  EXPECT_TRUE(contains(j.at("uvm.major").summary, "major 505"));
  EXPECT_TRUE(contains(j.at("uvm.major").hint, "c 505:* rwm"));
  EXPECT_EQ(j.status("devices.open"), Status::kFail);  // ENXIO on the stale nodes
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "uvm_node");
  EXPECT_FALSE(j.has_cause("device_access")) << "ENXIO is a stale major, not a permission problem";
}

TEST(Fixture, UserSpaceAndKernelVersionMismatch) {
  const auto j = judge_fixture("version-mismatch.json");
  EXPECT_EQ(j.status("versions.userspace"), Status::kFail);
  EXPECT_TRUE(contains(j.at("versions.userspace").summary, "libcuda 580.95.05"));
  EXPECT_TRUE(contains(j.at("nvml.init").summary, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"));
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "version_mismatch");
  EXPECT_TRUE(contains(j.verdict.causes[0].fix, "exactly the host's version"));
}

TEST(Fixture, StubLibcudaPickedUp) {
  const auto j = judge_fixture("stub-libcuda.json");
  EXPECT_EQ(j.status("cuda.library"), Status::kFail);
  EXPECT_EQ(j.status("env"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("cuda.init").summary, "CUDA_ERROR_STUB_LIBRARY"));
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "stub_library");
}

TEST(Fixture, FabricManagerMissingOnNvswitchHost) {
  const auto j = judge_fixture("nvswitch-no-fabric-manager.json");
  EXPECT_EQ(j.status("fabric_manager"), Status::kFail);
  EXPECT_TRUE(contains(j.at("cuda.init").summary, "802 CUDA_ERROR_SYSTEM_NOT_READY"));
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "fabric_manager");
}

TEST(Fixture, IommuOnWithAcsRedirection) {
  const auto j = judge_fixture("iommu-acs.json");
  EXPECT_EQ(j.status("pcie.acs"), Status::kFail);
  EXPECT_TRUE(contains(j.at("pcie.acs").summary, "5 bridge(s)"));
  EXPECT_EQ(j.status("iommu"), Status::kWarn);
  EXPECT_EQ(j.status("p2p.status"), Status::kPass)
      << "NVML says OK; the doctor still finds the redirect";
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
  ASSERT_GE(j.verdict.causes.size(), 2u);
  EXPECT_EQ(j.verdict.causes[0].id, "acs");
  EXPECT_EQ(j.verdict.causes[1].id, "iommu");
}

TEST(Fixture, GpuDowntrainedToGen3x8) {
  const auto j = judge_fixture("downtrained-link.json");
  EXPECT_EQ(j.status("pcie.link"), Status::kFail);
  EXPECT_TRUE(contains(j.at("pcie.link").summary, "0000:4b:00.0 x8/x16"));
  EXPECT_EQ(j.status("pcie.aer"), Status::kWarn);
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes[0].id, "link_width");
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
}

TEST(Fixture, RealH200VmCaptureIsHealthyWithNvlinkDisableReported) {
  const auto j = judge_fixture("h200-vm-real.json");
  EXPECT_TRUE(contains(j.facts.note, "Real capture"));
  // NvLinkDisable=1 is reported, and passes: one GPU has no peer to reach over NVLink.
  EXPECT_EQ(j.status("module.params"), Status::kPass);
  EXPECT_TRUE(contains(j.at("module.params").summary, "NvLinkDisable=1"));
  EXPECT_TRUE(
      contains(j.at("environment").summary, "virtual machine (KVM) with pass-through GPUs"));
  // The capture has no /lib/firmware/nvidia, yet GSP runs: the firmware came from elsewhere.
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kPass);
  EXPECT_TRUE(contains(j.at("gsp.firmware_file").summary, "found the firmware elsewhere"));
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy) << j.verdict.headline;
  EXPECT_TRUE(contains(j.verdict.headline, "VM with pass-through GPU(s)"));
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitOk);
}

// A real working host matches no documented row: the tables add no finding, the verdict is healthy.
TEST(Fixture, LiveFactsSavedOnTheH100MatchNoDocumentedRow) {
  const auto j = judge_facts(load_facts_file(std::string(P2P_SOURCE_DIR) +
                                             "/results/h100-vm-2026-12-05-doctor/h100-facts.json"));
  for (const auto& x : j.findings)
    EXPECT_NE(x.id.rfind("known.", 0), 0u) << x.id << ": " << x.summary;
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy) << j.verdict.headline;
  EXPECT_TRUE(j.verdict.causes.empty()) << j.verdict.causes.front().id;
}

TEST(Fixture, LiveFactsSavedOnTheH200AreHealthyInAContainerInAPassThroughVm) {
  // Saved with `p2pcheck doctor --save-facts` on the project's H200 (results/h200-vm-2026-12-02):
  // a container inside a KVM guest with the GPU passed through, every live probe run.
  const auto j = judge_facts(
      load_facts_file(std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-facts.json"));
  EXPECT_TRUE(contains(j.at("environment").summary,
                       "container (docker) inside a VM (KVM) with pass-through GPUs"));
  EXPECT_EQ(j.status("module.params"), Status::kPass);
  EXPECT_TRUE(contains(j.at("module.params").summary, "NvLinkDisable=1"));
  EXPECT_EQ(j.status("cuda.init"), Status::kPass);
  EXPECT_EQ(j.status("cuda.nvml_vs_cuinit"), Status::kPass);
  EXPECT_EQ(j.status("devices.open"), Status::kPass);
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy) << j.verdict.headline;
  EXPECT_TRUE(contains(j.verdict.headline, "in a VM with pass-through GPU(s)"))
      << j.verdict.headline;
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitOk);
}

TEST(Fixture, CiMachineWithoutDriver) {
  const auto j = judge_fixture("ci-no-driver.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kNoDriver);
  EXPECT_EQ(j.verdict.headline.rfind("no NVIDIA driver", 0), 0u) << j.verdict.headline;
  EXPECT_EQ(j.status("module.loaded"), Status::kFail);
  EXPECT_EQ(j.status("cuda.library"), Status::kFail);
  EXPECT_EQ(j.verdict.causes.at(0).id, "no_driver");
}

TEST(Fixture, EveryFixtureFileHasATestAbove) {
  std::set<std::string> tested = {
      "lxc-gsp-firmware-missing.json", "lxc-hmm-kaslr.json", "lxc-firmware-not-visible.json",
      "vfio-vm.json", "bare-metal-healthy.json", "proprietary-blackwell.json",
      "uvm-not-loaded.json", "container-uvm-major.json", "version-mismatch.json",
      "stub-libcuda.json", "nvswitch-no-fabric-manager.json", "iommu-acs.json",
      "downtrained-link.json", "h200-vm-real.json", "ci-no-driver.json",
      // Judged in scenarios_test.cpp, one test per weakness they were written for.
      "container-visible-devices.json", "epyc-iommu-faults.json", "vm-mmio-window.json",
      "nouveau-after-kernel-update.json", "one-gpu-dirty-after-vm.json", "geforce-container.json",
      "hgx-fabric-manager-version.json", "vfio-clique-peer-copy.json",
      "docker-cgroup-v1-daemon-reload.json",
      // Judged in stories_test.cpp: hosts from published failure reports.
      "rtx5090-rebar-off.json", "probe-fallen-off-bus.json", "xid79-under-load.json",
      "gsp-rpc-timeout.json", "cuda-broken-after-suspend.json",
      "driver-upgrade-without-reboot.json", "container-cgroup-v2-daemon-reload.json",
      "compat-libcuda-on-geforce.json", "secure-boot-key-rejected.json",
      "aws-no-fabric-manager.json", "iommu-nccl-hang.json",
      // Judged in published_stories_test.cpp.
      "acs-root-ports-nccl-hang.json", "plx-switch-acs.json", "docker-without-gpus.json",
      "lxc-userspace-version-mismatch.json", "mig-instances-visible.json", "geforce-no-p2p.json",
      "wsl2-no-p2p.json", "kernel-too-new-for-dkms.json", "vgpu-guest-no-p2p.json",
      // Judged in vfio_guest_test.cpp: VFIO guests with and without GPUDirect cliques.
      "vfio-cliques-unverified.json", "vfio-bad-clique.json", "vfio-clique-kvm-hidden.json",
      "vfio-clique-missing-on-one.json"};

  // Judged in health_stories_test.cpp, each as its expectations file says.
  const auto expectations = p2p::read_json_file(test::fixture("health-stories.expect.json"));
  for (const auto& story : expectations.at("stories"))
    tested.insert(story.at("fixture").get<std::string>());
  tested.insert("health-stories.expect.json");
  for (const auto& e : std::filesystem::directory_iterator(test::fixture_dir())) {
    if (e.path().extension() == ".json") {
      EXPECT_EQ(tested.count(e.path().filename().string()), 1u) << e.path();
    }
  }
}

}  // namespace
