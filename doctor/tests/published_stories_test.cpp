// More hosts from published failure reports (fixtures from published_stories.py; README.md in
// fixtures/ names each report). Like stories_test.cpp: the verdict, the check that shows the
// failure, and that the fix names what solved it for the reporter.
#include <gtest/gtest.h>

#include "doctor/derived.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
using test::judge_facts;
using test::judge_fixture;
using test::top;

using Gpus = std::vector<std::string>;

// NVIDIA/nccl#2079: two GPUs on different root ports of one root complex, ACS redirection on those
// root ports; NCCL deadlocked until ACS was cleared with setpci.
TEST(PublishedStory, AcsOnTheRootPortsOfGpusInOneRootComplexIsNamed) {
  const auto j = judge_fixture("acs-root-ports-nccl-hang.json");
  EXPECT_EQ(j.status("pcie.acs"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("pcie.acs").summary, "0000:40:01.1, 0000:60:01.1"))
      << j.at("pcie.acs").summary;
  EXPECT_EQ(top(j).id, "acs");
  EXPECT_TRUE(contains(top(j).fix, "setpci -s <bdf> ECAP_ACS+6.w=0000")) << top(j).fix;
  ASSERT_TRUE(j.has_cause("iommu"));
  EXPECT_LT(j.cause_rank("acs"), j.cause_rank("iommu"))
      << "the report's fix was ACS, not the IOMMU";
}

TEST(PublishedStory, AcsOnRootPortsOfDifferentNumaNodesStaysHarmless) {
  Facts f = load_facts_file(test::fixture("acs-root-ports-nccl-hang.json"));
  f.pci.value[1].numa_node = 1;  // the pair crosses the socket link whatever ACS says
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("pcie.acs"), Status::kPass);
  EXPECT_FALSE(j.has_cause("acs"));
}

// NVIDIA/nccl#304: PLX downstream ports with ReqRedir+ CmpltRedir+; setpci on them fixed it.
TEST(PublishedStory, AcsOnPlxDownstreamPortsNamesSetpci) {
  const auto j = judge_fixture("plx-switch-acs.json");
  EXPECT_EQ(j.status("pcie.acs"), Status::kFail);
  EXPECT_EQ(top(j).id, "acs");
  EXPECT_TRUE(contains(top(j).fix, "ECAP_ACS+6.w=0000")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "pci=disable_acs_redir=0000:04:08.0;")) << top(j).fix;
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
}

// abetlen/llama-cpp-python#1882: the container was started without --gpus.
TEST(PublishedStory, ContainerWithoutGpusSaysStartItWithGpus) {
  const auto j = judge_fixture("docker-without-gpus.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kBroken);
  EXPECT_EQ(top(j).id, "container_no_gpus");
  EXPECT_TRUE(contains(top(j).fix, "docker run --gpus all")) << top(j).fix;
  EXPECT_EQ(j.status("devices.nodes"), Status::kFail);
  EXPECT_TRUE(contains(j.at("devices.nodes").hint, "--gpus all")) << j.at("devices.nodes").hint;
  EXPECT_TRUE(contains(j.at("cuda.library").hint, "--gpus all")) << j.at("cuda.library").hint;
}

TEST(PublishedStory, LxcWithoutNodesIsNotTheDockerStory) {
  Facts f = load_facts_file(test::fixture("docker-without-gpus.json"));
  f.environment.dockerenv = false;
  f.environment.pid1_container = "lxc";
  EXPECT_FALSE(container_without_gpus(f)) << "LXC has no --gpus: its nodes are bind-mounted";
  EXPECT_FALSE(judge_facts(f).has_cause("container_no_gpus"));
}

// nvidiavgpuarchive/index#1: container user space 570.148.08 on a 570.148.06 host module.
TEST(PublishedStory, LxcUserspaceOfAnotherVersionThanTheHostModule) {
  const auto j = judge_fixture("lxc-userspace-version-mismatch.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kBroken);
  EXPECT_EQ(top(j).id, "version_mismatch");
  EXPECT_TRUE(contains(j.at("versions.userspace").summary, "libcuda 570.148.08"))
      << j.at("versions.userspace").summary;
  EXPECT_TRUE(contains(top(j).fix, "exactly the host's version")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "--no-kernel-modules")) << top(j).fix;
  EXPECT_EQ(j.status("uvm.major"), Status::kPass);
}

// vllm-project/vllm#6582 + NVIDIA/nccl#1716: CUDA_VISIBLE_DEVICES with MIG UUIDs.
TEST(PublishedStory, MigUuidsAreNotMissingGpusButHaveNoP2p) {
  const auto j = judge_fixture("mig-instances-visible.json");
  EXPECT_NE(j.verdict.state, VerdictState::kBroken)
      << "MIG UUIDs are valid CUDA_VISIBLE_DEVICES entries";
  EXPECT_FALSE(j.has_cause("visible_devices"));
  EXPECT_EQ(j.status("env"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("env").summary, "no peer-to-peer between MIG instances"))
      << j.at("env").summary;
  EXPECT_EQ(top(j).id, "mig_p2p");
  EXPECT_TRUE(contains(top(j).fix, "nvidia-smi -mig 0")) << top(j).fix;
}

TEST(PublishedStory, OneMigInstanceIsNoP2pQuestion) {
  Facts f = load_facts_file(test::fixture("mig-instances-visible.json"));
  f.env["CUDA_VISIBLE_DEVICES"] = "MIG-0929581a-2be6-5dec-bf34-0954c6c529a6";
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("env"), Status::kPass);
  EXPECT_FALSE(j.has_cause("mig_p2p"));
}

// allanchan339.github.io (RTX 4090 P2P): the stock driver offers GeForce no PCIe P2P.
TEST(PublishedStory, GeforceWithoutP2pIsAProductLimitNotAMisconfiguration) {
  const auto j = judge_fixture("geforce-no-p2p.json");
  EXPECT_EQ(j.status("p2p.status"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("p2p.status").summary, "product limitation"))
      << j.at("p2p.status").summary;
  EXPECT_EQ(top(j).id, "geforce_p2p");
  EXPECT_TRUE(contains(top(j).fix, "nothing to fix on this host")) << top(j).fix;
  EXPECT_FALSE(j.has_cause("p2p_unsupported"));
  EXPECT_EQ(p2p::doctor::exit_code_of(j.findings), 0);
}

TEST(PublishedStory, DataCentreGpusWithoutP2pStayAFailure) {
  Facts f = load_facts_file(test::fixture("geforce-no-p2p.json"));
  for (auto& d : f.nvml.devices) d.name = "NVIDIA L40S";
  for (auto& g : f.gpu_information.value) g.model = "NVIDIA L40S";
  for (auto& c : f.cuda.devices) c.name = "NVIDIA L40S";
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("p2p.status"), Status::kFail);
  EXPECT_TRUE(j.has_cause("p2p_unsupported"));
}

// vllm-project/vllm#4411: two RTX 3090 under WSL2.
TEST(PublishedStory, Wsl2IsRecognisedAndSaysThereIsNoP2p) {
  const auto j = judge_fixture("wsl2-no-p2p.json");
  EXPECT_TRUE(in_wsl(j.facts));
  EXPECT_TRUE(
      contains(j.at("environment").summary, "WSL2 (kernel 5.15.133.1-microsoft-standard-WSL2)"))
      << j.at("environment").summary;
  EXPECT_EQ(j.status("module.loaded"), Status::kSkip) << "no Linux module is expected under WSL2";
  EXPECT_EQ(j.status("devices.nodes"), Status::kSkip);
  EXPECT_EQ(j.status("p2p.status"), Status::kWarn);
  EXPECT_EQ(top(j).id, "wsl_p2p");
  EXPECT_TRUE(contains(top(j).fix, "run native Linux")) << top(j).fix;
  EXPECT_TRUE(contains(j.verdict.headline, "WSL2")) << j.verdict.headline;
  EXPECT_NE(j.verdict.state, VerdictState::kBroken);
}

TEST(PublishedStory, Wsl2IsToldByDxgOrTheLibraryPathToo) {
  Facts f = load_facts_file(test::fixture("wsl2-no-p2p.json"));
  f.kernel.release = {};
  EXPECT_TRUE(in_wsl(f)) << "/dev/dxg";
  f.device_nodes.value.clear();
  EXPECT_TRUE(in_wsl(f)) << "/usr/lib/wsl/lib/libcuda.so.1";
  f.cuda.library_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.551.76";
  EXPECT_FALSE(in_wsl(f));
  EXPECT_FALSE(in_wsl(load_facts_file(test::fixture("bare-metal-healthy.json"))));
}

// NVIDIA AI Enterprise vGPU P2P documentation: no P2P between vGPUs over PCIe.
TEST(PublishedStory, VgpuGuestWithoutP2pIsTheProfileNotTheVfioTopology) {
  const auto j = judge_fixture("vgpu-guest-no-p2p.json");
  EXPECT_TRUE(in_vgpu_guest(j.facts));
  EXPECT_FALSE(in_vm_passthrough(j.facts)) << "vGPUs are not passed-through devices";
  EXPECT_EQ(j.status("p2p.status"), Status::kWarn);
  EXPECT_EQ(top(j).id, "vgpu_p2p");
  EXPECT_FALSE(j.has_cause("vm_p2p"));
  EXPECT_FALSE(j.has_cause("p2p_unsupported"));
  EXPECT_TRUE(contains(top(j).fix, "full-framebuffer time-sliced vGPU")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "NVLink")) << top(j).fix;
}

// korvahannu/arch-nvidia-drivers-installation-guide#37: DKMS could not build 470.256.02 for
// the new kernel; the libraries are installed, modules.dep of the running kernel has no nvidia.
TEST(PublishedStory, KernelWithoutABuiltModuleIsNotAMissingDriver) {
  const auto j = judge_fixture("kernel-too-new-for-dkms.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kBroken) << "the driver is installed: not no_driver";
  EXPECT_EQ(top(j).id, "module_not_built");
  EXPECT_FALSE(j.has_cause("no_driver"));
  EXPECT_TRUE(contains(top(j).fix, "kernel 6.14.4-arch1-2")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "dkms")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "boot the previous kernel")) << top(j).fix;
  EXPECT_EQ(j.status("module.loaded"), Status::kFail);
  EXPECT_TRUE(contains(j.at("module.loaded").summary, "has no nvidia module"))
      << j.at("module.loaded").summary;
  EXPECT_FALSE(j.has_cause("vfio_bound")) << "nothing binds a GPU while no module is loaded";
}

TEST(PublishedStory, ABuiltButUnloadedModuleIsAnotherStory) {
  Facts f = load_facts_file(test::fixture("kernel-too-new-for-dkms.json"));
  f.kernel.module_files.value = {"updates/dkms/nvidia.ko.zst"};
  EXPECT_FALSE(module_not_built(f));
  f.kernel.module_files.value.clear();
  f.cuda.library_path.reset();
  f.nvml.library_path.reset();
  EXPECT_FALSE(module_not_built(f)) << "no libraries either: no driver installed, nothing to build";
  f.kernel.module_files = {};  // older facts: not looked at
  EXPECT_FALSE(module_not_built(f));
  EXPECT_FALSE(judge_facts(f).has_cause("module_not_built"));
}

}  // namespace
