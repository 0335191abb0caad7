// The file collectors end to end over roots/lxc-blackwell, plus their pure parsers.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "doctor/collect.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;

std::string tree() { return test::fixture("roots/lxc-blackwell"); }

Facts collect_tree() {
  CollectOptions o;
  o.root = tree();
  return collect_facts(o);
}

const PciFunction& pci(const Facts& f, const std::string& bdf) {
  for (const auto& p : f.pci.value)
    if (p.bdf == bdf) return p;
  ADD_FAILURE() << "no PCI function " << bdf;
  static const PciFunction none{};
  return none;
}

TEST(CollectRoot, KernelModuleFilesAndParameters) {
  const Facts f = collect_tree();
  EXPECT_EQ(f.source, "root " + tree());
  ASSERT_TRUE(f.kernel.modules.present());
  EXPECT_EQ(f.kernel.modules.value, (std::vector<std::string>{"nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia", "vfio_pci"}));
  EXPECT_EQ(f.kernel.module_version.value, "590.48.01");
  EXPECT_TRUE(contains(f.kernel.nvidia_version_text.value, "Open Kernel Module"));
  EXPECT_FALSE(contains(f.kernel.nvidia_version_text.value, "GCC")) << "only the first line is kept";
  EXPECT_EQ(f.kernel.params.value.at("EnableGpuFirmware"), "18");
  EXPECT_EQ(f.kernel.params.value.at("RegistryDwords"), "\"ForceP2P=0x11;RMPcieP2PType=2\"");
  EXPECT_EQ(f.kernel.uvm_disable_hmm.value, "N");
  EXPECT_EQ(f.kernel.char_majors.value.at("nvidia-uvm"), 511);
  EXPECT_EQ(f.kernel.char_majors.value.count("sd"), 0u) << "block devices are not character majors";
  EXPECT_TRUE(contains(f.kernel.cmdline.value, "iommu=pt"));
}

TEST(CollectRoot, KernelLogKeepsOnlyNvidiaLines) {
  const Facts f = collect_tree();
  ASSERT_TRUE(f.kernel.log_lines.present());
  EXPECT_EQ(f.kernel.log_lines.value.size(), 3u);
  for (const auto& l : f.kernel.log_lines.value) {
    EXPECT_FALSE(contains(l, "usb 3-2")) << l;
    EXPECT_NE(l.find(';'), 0u);
  }
  EXPECT_TRUE(contains(f.kernel.log_lines.value.back(), "request_free_mem_region() err -34"));
  EXPECT_EQ(f.kernel.log_lines.value.back().rfind("nvidia-uvm:", 0), 0u) << "the kmsg record header is stripped";
}

TEST(CollectRoot, FirmwareCgroupIommuDaemonsEnvironment) {
  const Facts f = collect_tree();
  EXPECT_EQ(f.firmware.versions.value, (std::vector<std::string>{"580.95.05", "590.48.01"}));
  EXPECT_EQ(f.firmware.gsp_files.value, (std::vector<std::string>{"gsp_ga10x.bin", "gsp_tu10x.bin"}));
  EXPECT_EQ(f.cgroup.hierarchy, std::optional<std::string>("v2"));
  EXPECT_EQ(f.cgroup.v2_path, std::optional<std::string>("/user.slice/user-0.slice/session-c1.scope"));
  EXPECT_TRUE(f.cgroup.devices_list.absent());
  EXPECT_EQ(f.iommu.units.value, std::vector<std::string>{"ivhd0"});
  EXPECT_EQ(f.iommu.group_types.value.at("identity"), 2);
  EXPECT_EQ(f.iommu.group_types.value.at("DMA"), 1);
  EXPECT_EQ(f.daemons.value, std::vector<std::string>{"nvidia-persistenced"});
  EXPECT_EQ(f.env.at("NCCL_P2P_LEVEL"), "SYS");
  EXPECT_EQ(f.env.at("CUDA_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(f.env.count("HOME"), 0u);
  EXPECT_EQ(f.environment.pid1_container, "lxc");
  EXPECT_EQ(f.cuda.status, "not_run");
  EXPECT_EQ(f.nvml.status, "not_run");
}

TEST(CollectRoot, PciFunctionsLinksAerBar1AndIommuGroups) {
  const Facts f = collect_tree();
  ASSERT_TRUE(f.pci.present());
  ASSERT_EQ(f.pci.value.size(), 2u) << "the AMD root port and the GPU's audio function are not collected";
  const auto& g0 = pci(f, "0000:41:00.0");
  EXPECT_EQ(g0.device_id, 0x2bb5);
  EXPECT_EQ(g0.class_code, 0x030200);
  EXPECT_EQ(g0.numa_node, std::optional<int>(0));
  EXPECT_EQ(g0.current_link_gts, std::optional<double>(32.0));
  EXPECT_EQ(g0.max_link_width, std::optional<int>(16));
  EXPECT_EQ(g0.driver.value, "nvidia");
  EXPECT_EQ(g0.bar1_bytes, std::optional<std::uint64_t>(128ull << 30));
  EXPECT_EQ(g0.iommu_group_type, std::optional<std::string>("identity"));
  EXPECT_EQ(g0.aer_correctable, std::optional<std::uint64_t>(0));
  const auto& g1 = pci(f, "0000:63:00.0");
  EXPECT_EQ(g1.current_link_gts, std::optional<double>(16.0));
  EXPECT_EQ(g1.current_link_width, std::optional<int>(8));
  EXPECT_EQ(g1.aer_correctable, std::optional<std::uint64_t>(3));
  EXPECT_EQ(g1.aer_fatal, std::optional<std::uint64_t>(0));
}

TEST(CollectRoot, BridgesAboveEachGpuWithTheirAcsControl) {
  const Facts f = collect_tree();
  const auto& g0 = pci(f, "0000:41:00.0");
  ASSERT_EQ(g0.upstream.size(), 1u);
  EXPECT_EQ(g0.upstream[0].bdf, "0000:40:01.1");
  EXPECT_EQ(g0.upstream[0].acs_control.seen, Seen::kPresent);
  EXPECT_EQ(g0.upstream[0].acs_control.value, 0);
  const auto& g1 = pci(f, "0000:63:00.0");
  ASSERT_EQ(g1.upstream.size(), 3u);  // root port first
  EXPECT_EQ(g1.upstream[0].bdf, "0000:60:01.1");
  EXPECT_TRUE(g1.upstream[0].acs_control.absent()) << "no ACS capability";
  EXPECT_EQ(g1.upstream[1].acs_control.seen, Seen::kUnreadable) << "256-byte config space";
  EXPECT_EQ(g1.upstream[2].bdf, "0000:62:00.0");
  EXPECT_EQ(g1.upstream[2].acs_control.value, 0x1d);
}

TEST(CollectRoot, DriverInformationFilesAndNodesThatAreNotDevices) {
  const Facts f = collect_tree();
  ASSERT_TRUE(f.gpu_information.present());
  ASSERT_EQ(f.gpu_information.value.size(), 2u);
  EXPECT_EQ(f.gpu_information.value[1].bdf, "0000:63:00.0");
  EXPECT_EQ(f.gpu_information.value[1].device_minor, std::optional<int>(1));
  EXPECT_EQ(f.gpu_information.value[1].gsp_firmware, std::optional<std::string>("590.48.01"));
  ASSERT_TRUE(f.device_nodes.present());
  EXPECT_EQ(f.device_nodes.value.size(), 6u);
  for (const auto& n : f.device_nodes.value) {
    EXPECT_EQ(n.type, "regular") << n.path;
    EXPECT_FALSE(n.open_rdwr.has_value()) << "plain files under a fixture root are never opened: " << n.path;
  }
}

TEST(CollectRoot, TheTreeIsJudgedAsWhatItIs) {
  const auto j = test::judge_facts(collect_tree());
  EXPECT_EQ(j.status("devices.nodes"), Status::kFail);
  EXPECT_TRUE(contains(j.at("devices.nodes").summary, "not a character device"));
  EXPECT_EQ(j.status("devices.open"), Status::kUnknown);
  // The redirecting downstream port sits above one GPU only; the two GPUs hang off different
  // root ports and meet in the root complex, so the redirect is on no peer path.
  EXPECT_EQ(j.status("pcie.acs"), Status::kPass);
  EXPECT_TRUE(contains(j.at("pcie.acs").summary, "0000:62:00.0, harmless here")) << j.at("pcie.acs").summary;
  EXPECT_EQ(j.status("pcie.link"), Status::kFail);
  EXPECT_EQ(j.status("iommu"), Status::kPass);
  EXPECT_EQ(j.status("uvm.hmm"), Status::kFail);
  EXPECT_EQ(j.status("gsp.firmware_file"), Status::kPass);
  EXPECT_EQ(j.status("cuda.init"), Status::kSkip);
  // And the facts survive a save and a reload unchanged.
  EXPECT_EQ(facts_to_json(facts_from_json(facts_to_json(j.facts))), facts_to_json(j.facts));
}

TEST(CollectRoot, MissingOrNonDirectoryRootIsBadInput) {
  CollectOptions o;
  o.root = tree() + "/does-not-exist";
  EXPECT_THROW(collect_facts(o), p2p::InputError);
  o.root = tree() + "/proc/modules";
  try {
    collect_facts(o);
    FAIL() << "a regular file was accepted as root";
  } catch (const p2p::InputError& e) {
    EXPECT_TRUE(contains(e.what(), o.root)) << e.what();
    EXPECT_TRUE(contains(e.what(), "Not a directory")) << e.what();
  }
}

std::string config_with(const std::vector<std::pair<std::size_t, std::uint32_t>>& dwords, std::size_t size = 4096) {
  std::string c(size, '\0');
  for (const auto& [at, v] : dwords)
    for (int i = 0; i < 4; ++i) c[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  return c;
}

TEST(AcsParser, WalksTheExtendedCapabilityChain) {
  // AER (id 1) at 0x100 -> next 0x148: ACS (id 0xd), capability 0x5f, control 0x001d.
  const auto c = config_with({{0x100, 0x0001u | (1u << 16) | (0x148u << 20)}, {0x148, 0x000du | (1u << 16)}, {0x14c, 0x001d005fu}});
  const auto acs = acs_control_from_config(c);
  ASSERT_TRUE(acs.present());
  EXPECT_EQ(acs.value, 0x1d);
  EXPECT_TRUE(acs_control_from_config(config_with({{0x100, 0x0001u}})).absent());
  EXPECT_EQ(acs_control_from_config(std::string(256, '\0')).seen, Seen::kUnreadable);
  EXPECT_EQ(acs_control_from_config(std::string(64, '\0')).seen, Seen::kUnreadable);
  // A chain that points back at itself ends instead of spinning.
  EXPECT_TRUE(acs_control_from_config(config_with({{0x100, 0x0001u | (0x100u << 20)}})).absent());
}

TEST(LogParser, RecordsAndRelevance) {
  EXPECT_EQ(log_message("6,1203,5290121,-;nvidia-uvm: Loaded the UVM driver"), "nvidia-uvm: Loaded the UVM driver");
  EXPECT_EQ(log_message("<4>[   12.345678] NVRM: API mismatch"), "NVRM: API mismatch");
  EXPECT_TRUE(is_relevant_log_line("NVRM: GPU 0000:01:00.0: RmInitAdapter failed!"));
  EXPECT_TRUE(is_relevant_log_line("nvidia 0000:01:00.0: Direct firmware load for nvidia/590.48.01/gsp_ga10x.bin failed"));
  EXPECT_FALSE(is_relevant_log_line("EXT4-fs (dm-1): mounted filesystem"));
}

}  // namespace
