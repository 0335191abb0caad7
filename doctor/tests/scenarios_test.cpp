// Hosts whose cause must be weighed from evidence (fixtures from evidence_scenarios.py), one test
// per weakness of the doctor they were written against: the ranked root cause, the GPUs it
// concerns, and the fix the user is sent to.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/exit_codes.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/derived.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
using test::judge_facts;
using test::judge_fixture;
using test::top;

using Gpus = std::vector<std::string>;

// --- An environment variable that names GPUs that do not exist ---

TEST(Scenario, VisibleDevicesNamingAbsentGpusIsTheCause) {
  const auto j = judge_fixture("container-visible-devices.json");
  EXPECT_EQ(j.status("env"), Status::kFail);
  EXPECT_TRUE(contains(j.at("env").summary,
                       "CUDA_VISIBLE_DEVICES=4,5 names 4, which is not among 2 GPU(s) here"))
      << j.at("env").summary;
  EXPECT_EQ(top(j).id, "visible_devices");
  EXPECT_EQ(top(j).title, "CUDA_VISIBLE_DEVICES names GPUs that are not here");
  EXPECT_EQ(top(j).confidence, "confirmed");
  EXPECT_TRUE(top(j).gpus.empty()) << "the variable, not a GPU, is at fault";
  EXPECT_TRUE(contains(top(j).fix, "renumbered from 0")) << top(j).fix;
  EXPECT_TRUE(
      contains(j.verdict.headline,
               "Most likely root cause: CUDA_VISIBLE_DEVICES names GPUs that are not here"));
  // NVIDIA_VISIBLE_DEVICES=4,5 names the host's indices: not judged from inside.
  EXPECT_FALSE(contains(j.at("env").summary, "NVIDIA_VISIBLE_DEVICES")) << j.at("env").summary;
  // sysfs shows the host's eight GPUs; the container's two nodes are not "missing" six.
  EXPECT_EQ(j.status("devices.nodes"), Status::kPass);
}

TEST(Scenario, VisibleDevicesByUuidOfAnotherHost) {
  Facts f = load_facts_file(test::fixture("container-visible-devices.json"));
  f.env["CUDA_VISIBLE_DEVICES"] = "GPU-3c9e1a52,GPU-77aa0e41-5d0c-4b8f-a3e2-1f9c6d20b4e7";
  f.cuda.init_result = 0;  // the first UUID prefix is here: CUDA sees one GPU
  f.cuda.device_count = 1;
  f.cuda.devices = {CudaDevice{0, "NVIDIA H100 80GB HBM3", "0000:9a:00.0", 9, 0, 0, 0}};
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("env"), Status::kWarn)
      << "one GPU still usable: a warning, not the cause of a failure";
  EXPECT_TRUE(contains(j.at("env").summary, "names GPU-77aa0e41-5d0c-4b8f-a3e2-1f9c6d20b4e7"))
      << j.at("env").summary;
  f.env["CUDA_VISIBLE_DEVICES"] = "GPU-77aa0e41-5d0c-4b8f-a3e2-1f9c6d20b4e7,GPU-3c9e1a52";
  f.cuda.init_result = 100;
  f.cuda.device_count.reset();
  f.cuda.devices.clear();
  const auto k = judge_facts(f);
  EXPECT_EQ(k.status("env"), Status::kFail);
  EXPECT_TRUE(contains(k.at("env").summary,
                       "CUDA stops at the first such entry, so GPU-3c9e1a52 after it are ignored"))
      << k.at("env").summary;
  EXPECT_EQ(top(k).id, "visible_devices");
}

// --- IOMMU faults against ACS redirection ---

TEST(Scenario, IommuFaultsOnGpuAddressesOutrankAcs) {
  const auto j = judge_fixture("epyc-iommu-faults.json");
  EXPECT_EQ(j.status("iommu"), Status::kFail);
  EXPECT_TRUE(contains(j.at("iommu").summary, "IOMMU translated")) << j.at("iommu").summary;
  EXPECT_EQ(top(j).id, "iommu");
  EXPECT_EQ(top(j).confidence, "confirmed");
  EXPECT_EQ(top(j).gpus, (Gpus{"0000:01:00.0", "0000:41:00.0"}));
  EXPECT_TRUE(contains(top(j).fix, "iommu=pt")) << top(j).fix;
  // The kernel set ACS on the root ports because the IOMMU is on; no pair turns below a root port,
  // but the GPUs meet in one root complex, where redirection sends their requests to the IOMMU
  // (published_stories_test.cpp: NCCL hung there). The faults themselves stay the first cause.
  EXPECT_EQ(j.status("pcie.acs"), Status::kWarn);
  EXPECT_TRUE(
      contains(j.at("pcie.acs").summary, "root ports of GPUs that meet in the root complex"))
      << j.at("pcie.acs").summary;
  ASSERT_TRUE(j.has_cause("acs"));
  EXPECT_GT(j.cause_rank("acs"), j.cause_rank("iommu"));
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitFailed);
}

TEST(Scenario, AcsStillCountsWhereTrafficTurnsInsideASwitch) {
  // The same host with the GPUs behind one switch whose downstream ports redirect: ACS is the
  // cause as long as no fault says the IOMMU dropped anything.
  Facts f = load_facts_file(test::fixture("epyc-iommu-faults.json"));
  f.kernel.log_lines.value.clear();
  f.peer_copy = PeerCopyProbe{};
  for (std::size_t i = 0; i < f.pci.value.size(); ++i)
    f.pci.value[i].upstream = {
        Bridge{"0000:00:01.1", Observed<int>::of(0)},
        Bridge{"0000:01:00.0", Observed<int>::missing()},
        Bridge{"0000:02:0" + std::to_string(i) + ".0", Observed<int>::of(0x1d)}};
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("pcie.acs"), Status::kFail);
  EXPECT_EQ(top(j).id, "acs");
  EXPECT_EQ(j.cause_rank("iommu"), 1u);
}

// --- Evidence that never reached the facts ---

TEST(Scenario, BarAllocationFailuresReachTheFactsAndNameTheCause) {
  const auto j = judge_fixture("vm-mmio-window.json");
  // Every line of this story is one the collector keeps for these GPUs.
  std::vector<std::string> bdfs;
  for (const auto& p : j.facts.pci.value) {
    bdfs.push_back(p.bdf);
    for (const auto& b : p.upstream) bdfs.push_back(b.bdf);
  }
  for (const auto& line : j.facts.kernel.log_lines.value)
    EXPECT_TRUE(is_relevant_log_line(line, bdfs)) << line;
  EXPECT_EQ(top(j).id, "bar_space");
  EXPECT_EQ(top(j).confidence, "confirmed");
  EXPECT_EQ(top(j).gpus, (Gpus{"0000:03:00.0", "0000:04:00.0"}));
  EXPECT_TRUE(contains(top(j).fix, "64-bit MMIO window")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "X-PciMmio64Mb")) << top(j).fix;
  EXPECT_FALSE(j.has_cause("vfio_bound")) << "the unbound GPUs are explained by the BAR lines";
  EXPECT_TRUE(contains(j.at("kernel.log").summary, "PCI BAR space not assigned"));
}

TEST(Scenario, BareMetalBarFailureSendsToTheBios) {
  Facts f = load_facts_file(test::fixture("vm-mmio-window.json"));
  f.environment = load_facts_file(test::fixture("bare-metal-healthy.json")).environment;
  for (auto& d : f.nvml.devices) d.virtualization_mode = 0;
  const auto j = judge_facts(f);
  EXPECT_EQ(top(j).id, "bar_space");
  EXPECT_TRUE(contains(top(j).fix, "Above 4G Decoding")) << top(j).fix;
}

// --- A competing driver is not "no driver" ---

TEST(Scenario, CompetingDriverIsNotNoDriver) {
  const auto j = judge_fixture("nouveau-after-kernel-update.json");
  EXPECT_NE(j.verdict.state, VerdictState::kNoDriver) << j.verdict.headline;
  EXPECT_EQ(j.verdict.state, VerdictState::kBroken);
  EXPECT_EQ(top(j).id, "competing_driver");
  EXPECT_EQ(top(j).title, "GPU(s) bound to nouveau instead of nvidia");
  EXPECT_EQ(top(j).gpus, (Gpus{"0000:01:00.0", "0000:21:00.0"}));
  EXPECT_TRUE(contains(top(j).fix, "blacklist nouveau")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "rebuild the initramfs")) << top(j).fix;
  EXPECT_FALSE(contains(top(j).fix, "install the NVIDIA driver")) << top(j).fix;
  EXPECT_FALSE(j.has_cause("no_driver"));
  EXPECT_TRUE(contains(j.at("module.loaded").summary,
                       "held by nouveau while the NVIDIA libraries are installed"));
  EXPECT_EQ(j.status("cgroup"), Status::kSkip) << "no nodes: nothing for a device policy to judge";
}

TEST(Scenario, AnotherModuleHoldingAGpuGetsItsOwnUnbindFix) {
  Facts f = load_facts_file(test::fixture("nouveau-after-kernel-update.json"));
  for (auto& p : f.pci.value) p.driver.value = "vfio-pci";
  auto j = judge_facts(f);
  EXPECT_EQ(top(j).id, "vfio_bound");
  EXPECT_TRUE(contains(top(j).fix, "/sys/bus/pci/drivers/vfio-pci/unbind")) << top(j).fix;
  f.pci.value[1].driver.value = "pci-stub";
  j = judge_facts(f);
  EXPECT_TRUE(contains(j.at("module.binding").summary, "pci-stub (0000:21:00.0)"))
      << j.at("module.binding").summary;
}

// --- Some GPUs broken, others fine ---

TEST(Scenario, SomeGpusBrokenOthersFine) {
  const auto j = judge_fixture("one-gpu-dirty-after-vm.json");
  EXPECT_EQ(j.verdict.state, VerdictState::kPartial);
  EXPECT_EQ(
      j.verdict.headline.rfind("CUDA works on 3 of 4 GPU(s); 0000:c1:00.0 cannot be used.", 0), 0u)
      << j.verdict.headline;
  EXPECT_FALSE(contains(j.verdict.headline, "CUDA cannot work here"));
  EXPECT_EQ(j.verdict.unusable_gpus, (Gpus{"0000:c1:00.0"}));
  EXPECT_EQ(top(j).id, "gsp_firmware");
  EXPECT_EQ(top(j).title, "GPU initialisation (GSP boot) failed on some GPUs");
  EXPECT_EQ(top(j).gpus, (Gpus{"0000:c1:00.0"}));
  EXPECT_TRUE(contains(top(j).fix, "nvidia-smi -r -i 0000:c1:00.0")) << top(j).fix;
  EXPECT_FALSE(contains(top(j).fix, "install the GSP firmware"))
      << "the firmware boots on the other three";
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kPass);
  EXPECT_EQ(j.status("kernel.log"), Status::kFail) << "not history: the GPU it names is still down";
}

// --- False alarms ---

TEST(Scenario, ChecksWithNothingToJudgeDoNotAlarm) {
  const auto j = judge_fixture("geforce-container.json");
  // One GPU, 256 MiB BAR1: no peer to be crippled.
  EXPECT_EQ(j.status("bar1"), Status::kSkip);
  EXPECT_TRUE(contains(j.at("bar1").summary, "there is no peer")) << j.at("bar1").summary;
  EXPECT_FALSE(j.has_cause("bar1"));
  // GeForce under the proprietary module runs with GSP off; the host's firmware is irrelevant.
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kPass);
  EXPECT_FALSE(j.has_cause("gsp_firmware"));
  // The real cause still comes first.
  EXPECT_EQ(top(j).id, "uvm_node");
  EXPECT_TRUE(contains(top(j).fix, "/dev/nvidia-uvm c 507 0")) << top(j).fix;
  EXPECT_EQ(j.verdict.causes.size(), 1u) << "nothing 'possible' added beside it";
}

// --- What the facts could not hold: Fabric Manager's version, a peer copy ---

TEST(Scenario, FabricManagerVersionAgainstTheDriver) {
  const auto j = judge_fixture("hgx-fabric-manager-version.json");
  EXPECT_EQ(j.status("fabric_manager"), Status::kFail);
  EXPECT_TRUE(contains(j.at("fabric_manager").summary,
                       "Fabric Manager 570.124.06 does not match the driver 570.133.20"))
      << j.at("fabric_manager").summary;
  EXPECT_EQ(top(j).id, "fabric_manager");
  EXPECT_EQ(top(j).title, "Fabric Manager of another release than the driver");
  EXPECT_TRUE(contains(top(j).fix, "nvidia-fabricmanager of exactly 570.133.20")) << top(j).fix;
  EXPECT_TRUE(top(j).gpus.empty());
}

TEST(Scenario, PeerCopyDataThatDidNotArrive) {
  const auto j = judge_fixture("vfio-clique-peer-copy.json");
  EXPECT_EQ(j.status("p2p.status"), Status::kPass) << "NVML claims P2P";
  EXPECT_EQ(j.status("p2p.copy"), Status::kFail);
  EXPECT_TRUE(
      contains(j.at("p2p.copy").summary, "P2P claimed but data did not arrive on 2 of 2 pair(s)"));
  EXPECT_TRUE(contains(j.at("p2p.copy").evidence.front(), "262144/262144 words differ"))
      << j.at("p2p.copy").evidence.front();
  // The clique the guest reads names the cause first (vfio_guest_test.cpp); the lost data follows.
  EXPECT_EQ(top(j).id, "vm_clique_bad");
  EXPECT_EQ(j.cause_rank("p2p_data_lost"), 1u);
  const Cause& lost = j.verdict.causes.at(1);
  EXPECT_EQ(lost.gpus, (Gpus{"0000:06:00.0", "0000:07:00.0"}));
  EXPECT_TRUE(contains(lost.fix, "NCCL_P2P_DISABLE=1")) << lost.fix;
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
  EXPECT_EQ(exit_code_of(j.findings), p2p::kExitFailed);
}

TEST(Scenario, PeerCopyOnOneGpuRunsAgainstItselfAndSaysSo) {
  Facts f = load_facts_file(test::fixture("h200-vm-real.json"));
  PeerCopyPair self;
  self.src_bus_id = self.dst_bus_id = "0000:00:06.0";
  self.copy_result = self.store_result = CopyResult::kOk;
  self.copy_mismatched_words = self.store_mismatched_words = 0;
  self.words = 262144;
  f.peer_copy = PeerCopyProbe{
      ProbeStatus::kCompleted, "one GPU: checked against itself", PeerCopyMode::kSelf, {self}};
  const auto j = judge_facts(f);
  EXPECT_EQ(j.status("p2p.copy"), Status::kPass);
  EXPECT_TRUE(contains(j.at("p2p.copy").summary, "one GPU: checked against itself"))
      << j.at("p2p.copy").summary;
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy) << j.verdict.headline;
  EXPECT_EQ(j.status("module.params"), Status::kPass) << "NvLinkDisable on one GPU changes nothing";
}

// --- cgroup v1 inside Docker without a cgroup namespace ---

TEST(Scenario, CgroupV1InDockerReadsTheContainersOwnDevicesList) {
  const auto j = judge_fixture("docker-cgroup-v1-daemon-reload.json");
  EXPECT_EQ(j.status("cgroup"), Status::kFail) << j.at("cgroup").summary;
  EXPECT_TRUE(contains(j.at("cgroup").summary, "does not allow c 195:* rwm, c 509:* rwm"));
  const auto& ev = j.at("cgroup").evidence;
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const std::string& e) {
    return contains(e, "devices.list (/sys/fs/cgroup/devices/devices.list)");
  }));
  EXPECT_EQ(top(j).id, "device_access");
  EXPECT_TRUE(contains(top(j).fix, "c 195:* rwm")) << top(j).fix;
}

// --- Hosts from published reports (stories_test.cpp judges them) ---

TEST(Scenario, EveryLogLineOfThePublishedStoriesIsOneTheCollectorKeeps) {
  // Suspend/resume, Secure Boot and module-signature lines name no NVIDIA device: the collector
  // must keep them by their wording, or the doctor never sees the evidence these stories rest on.
  for (const char* name :
       {"rtx5090-rebar-off.json", "probe-fallen-off-bus.json", "xid79-under-load.json",
        "gsp-rpc-timeout.json", "cuda-broken-after-suspend.json",
        "driver-upgrade-without-reboot.json", "secure-boot-key-rejected.json"}) {
    const Facts f = load_facts_file(test::fixture(name));
    ASSERT_TRUE(f.kernel.log_lines.present()) << name;
    EXPECT_FALSE(f.kernel.log_lines.value.empty()) << name;
    std::vector<std::string> bdfs;
    for (const auto& p : f.pci.value) bdfs.push_back(p.bdf);
    for (const auto& line : f.kernel.log_lines.value)
      EXPECT_TRUE(is_relevant_log_line(line, bdfs)) << name << ": " << line;
  }
  EXPECT_FALSE(is_relevant_log_line("PM: Image saving progress:  10%", {}))
      << "hibernation progress lines would crowd the bounded log";
}

}  // namespace
