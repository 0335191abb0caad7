// The file collectors end to end over roots/lxc-blackwell, plus their pure parsers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/temp_dir.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/derived.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
namespace fs = std::filesystem;

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
  EXPECT_EQ(f.kernel.modules.value,
            (std::vector<std::string>{"nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia",
                                      "vfio_pci"}));
  EXPECT_EQ(f.kernel.module_version.value, "590.48.01");
  EXPECT_TRUE(contains(f.kernel.nvidia_version_text.value, "Open Kernel Module"));
  EXPECT_FALSE(contains(f.kernel.nvidia_version_text.value, "GCC"))
      << "only the first line is kept";
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
  EXPECT_EQ(f.kernel.log_lines.value.back().rfind("nvidia-uvm:", 0), 0u)
      << "the kmsg record header is stripped";
}

TEST(CollectRoot, FirmwareCgroupIommuDaemonsEnvironment) {
  const Facts f = collect_tree();
  EXPECT_EQ(f.firmware.versions.value, (std::vector<std::string>{"580.95.05", "590.48.01"}));
  EXPECT_EQ(f.firmware.gsp_files.value,
            (std::vector<std::string>{"gsp_ga10x.bin", "gsp_tu10x.bin"}));
  EXPECT_EQ(f.cgroup.hierarchy, std::optional<std::string>("v2"));
  EXPECT_EQ(f.cgroup.v2_path,
            std::optional<std::string>("/user.slice/user-0.slice/session-c1.scope"));
  EXPECT_TRUE(f.cgroup.devices_list.absent());
  EXPECT_EQ(f.iommu.units.value, std::vector<std::string>{"ivhd0"});
  EXPECT_EQ(f.iommu.group_types.value.at("identity"), 2);
  EXPECT_EQ(f.iommu.group_types.value.at("DMA"), 1);
  EXPECT_EQ(f.daemons.value, std::vector<std::string>{"nvidia-persistenced"});
  EXPECT_EQ(f.env.at("NCCL_P2P_LEVEL"), "SYS");
  EXPECT_EQ(f.env.at("CUDA_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(f.env.count("HOME"), 0u);
  EXPECT_EQ(f.environment.pid1_container, "lxc");
  EXPECT_EQ(f.cuda.status, ProbeStatus::kNotRun);
  EXPECT_EQ(f.nvml.status, ProbeStatus::kNotRun);
}

TEST(CollectRoot, PciFunctionsLinksAerBar1AndIommuGroups) {
  const Facts f = collect_tree();
  ASSERT_TRUE(f.pci.present());
  ASSERT_EQ(f.pci.value.size(), 2u)
      << "the AMD root port and the GPU's audio function are not collected";
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
    EXPECT_FALSE(n.open_rdwr.has_value())
        << "plain files under a fixture root are never opened: " << n.path;
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
  EXPECT_TRUE(contains(j.at("pcie.acs").summary, "0000:62:00.0, harmless here"))
      << j.at("pcie.acs").summary;
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

std::string config_with(const std::vector<std::pair<std::size_t, std::uint32_t>>& dwords,
                        std::size_t size = 4096) {
  std::string c(size, '\0');
  for (const auto& [at, v] : dwords)
    for (int i = 0; i < 4; ++i)
      c[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  return c;
}

TEST(AcsParser, WalksTheExtendedCapabilityChain) {
  // AER (id 1) at 0x100 -> next 0x148: ACS (id 0xd), capability 0x5f, control 0x001d.
  const auto c = config_with({{0x100, 0x0001u | (1u << 16) | (0x148u << 20)},
                              {0x148, 0x000du | (1u << 16)},
                              {0x14c, 0x001d005fu}});
  const auto acs = acs_control_from_config(c);
  ASSERT_TRUE(acs.present());
  EXPECT_EQ(acs.value, 0x1d);
  EXPECT_TRUE(acs_control_from_config(config_with({{0x100, 0x0001u}})).absent());
  EXPECT_EQ(acs_control_from_config(std::string(256, '\0')).seen, Seen::kUnreadable);
  EXPECT_EQ(acs_control_from_config(std::string(64, '\0')).seen, Seen::kUnreadable);
  // A chain that points back at itself ends instead of spinning.
  EXPECT_TRUE(acs_control_from_config(config_with({{0x100, 0x0001u | (0x100u << 20)}})).absent());
}

TEST(LogParser, KeepsTheLinesThatDecideAGpusFate) {
  const std::vector<std::string> gpus = {"0000:41:00.0", "0000:40:01.1"};
  EXPECT_TRUE(is_relevant_log_line(
      "pci 0000:41:00.0: BAR 1: no space for [mem size 0x2000000000 64bit pref]", gpus));
  EXPECT_TRUE(is_relevant_log_line(
      "pci 0000:40:01.1: bridge window [mem size 0x2000000000 64bit pref]: can't assign; no space",
      gpus));
  EXPECT_FALSE(is_relevant_log_line(
      "pci 0000:41:00.0: BAR 1 [mem 0x38000000000-0x3801fffffff 64bit pref]", gpus))
      << "enumeration lines would crowd the driver's lines out of the bounded log";
  EXPECT_FALSE(is_relevant_log_line(
      "pci 0000:99:00.0: BAR 0: failed to assign [mem size 0x00004000]", gpus));
  EXPECT_TRUE(is_relevant_log_line("nouveau 0000:01:00.0: NVIDIA AD102 (192000a1)"));
  EXPECT_TRUE(is_relevant_log_line(
      "nvidia 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0017 address=0x3800a000000 flags=0x0020]"));
  EXPECT_TRUE(is_relevant_log_line(
      "DMAR: [DMA Write NO_PASID] Request device [41:00.0] fault addr 0x38000000000 [fault reason 0x05] PTE Write access is not set"));
  EXPECT_TRUE(is_relevant_log_line("vfio-pci 0000:41:00.0: enabling device (0000 -> 0003)"));
}

TEST(CollectRoot, KernelReleaseAndTheWslNodeMarkWsl2) {
  // The lxc-blackwell tree has no /proc/sys/kernel/osrelease: absent, not a fault.
  EXPECT_TRUE(collect_tree().kernel.release.absent());
  const p2p::TempDir tmp("p2p_wsl_root");
  const fs::path root = tmp.path();
  fs::create_directories(root / "proc/sys/kernel");
  fs::create_directories(root / "dev");
  std::ofstream(root / "proc/sys/kernel/osrelease") << "5.15.133.1-microsoft-standard-WSL2\n";
  std::ofstream(root / "dev/dxg");  // a plain file here; on WSL2 a character device
  CollectOptions o;
  o.root = root.string();
  const Facts f = collect_facts(o);
  ASSERT_TRUE(f.kernel.release.present());
  EXPECT_EQ(f.kernel.release.value, "5.15.133.1-microsoft-standard-WSL2");
  ASSERT_TRUE(f.device_nodes.present());
  ASSERT_EQ(f.device_nodes.value.size(), 1u);
  EXPECT_EQ(f.device_nodes.value[0].path, "/dev/dxg");
  EXPECT_TRUE(in_wsl(f));
}

TEST(ModulesDep, ListsTheNvidiaModulesButNotTheKernelsFramebufferDriver) {
  const std::string dep =
      "kernel/drivers/video/fbdev/nvidia/nvidiafb.ko.zst: kernel/drivers/video/fbdev/core/fb_ddc.ko.zst\n"
      "updates/dkms/nvidia.ko.zst:\n"
      "updates/dkms/nvidia-uvm.ko.zst: updates/dkms/nvidia.ko.zst\n"
      "kernel/sound/core/snd.ko.zst:\n";
  EXPECT_EQ(nvidia_module_files(dep), (std::vector<std::string>{"updates/dkms/nvidia.ko.zst",
                                                                "updates/dkms/nvidia-uvm.ko.zst"}));
  EXPECT_TRUE(nvidia_module_files("kernel/sound/core/snd.ko:\n").empty());

  // Through the collector: the running kernel's modules.dep, found by its release.
  const p2p::TempDir tmp("p2p_modules_dep");
  const fs::path root = tmp.path();
  fs::create_directories(root / "proc/sys/kernel");
  fs::create_directories(root / "lib/modules/6.14.4-arch1-2");
  std::ofstream(root / "proc/sys/kernel/osrelease") << "6.14.4-arch1-2\n";
  std::ofstream(root / "lib/modules/6.14.4-arch1-2/modules.dep")
      << "kernel/sound/core/snd.ko.zst:\n";
  const KernelFacts k = collect_kernel(root.string());
  ASSERT_TRUE(k.module_files.present());
  EXPECT_TRUE(k.module_files.value.empty());
  // Without the release there is no directory to look in.
  EXPECT_EQ(collect_kernel(tree()).module_files.seen, Seen::kNotChecked);
}

TEST(CgroupV1, DockerWithoutACgroupNamespaceReadsItsOwnDevicesList) {
  // /proc/self/cgroup names the host's path; the container's own cgroup is what is mounted.
  const std::string mountinfo =
      "1024 1001 0:95 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A\n"
      "1040 1039 0:31 /docker/4f1c2b /sys/fs/cgroup/devices ro,nosuid,nodev,noexec,relatime master:16 - cgroup cgroup rw,devices\n"
      "1041 1039 0:32 /docker/4f1c2b /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:17 - cgroup cgroup rw,memory\n";
  EXPECT_EQ(v1_devices_list_path(mountinfo, "/docker/4f1c2b"),
            std::optional<std::string>("/sys/fs/cgroup/devices/devices.list"));
  // On the host the whole hierarchy is mounted: the cgroup path lies below the mount point.
  const std::string host =
      "40 25 0:31 / /sys/fs/cgroup/devices rw,nosuid - cgroup cgroup rw,devices\n";
  EXPECT_EQ(v1_devices_list_path(host, "/lxc/101"),
            std::optional<std::string>("/sys/fs/cgroup/devices/lxc/101/devices.list"));
  EXPECT_FALSE(v1_devices_list_path("36 25 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "/")
                   .has_value());

  // The same through the collector, on a root written here.
  const p2p::TempDir tmp("p2p_cgroup_v1");
  const fs::path root = tmp.path();
  fs::create_directories(root / "proc/self");
  fs::create_directories(root / "sys/fs/cgroup/devices");
  std::ofstream(root / "proc/self/cgroup")
      << "11:devices:/docker/4f1c2b\n4:memory:/docker/4f1c2b\n";
  std::ofstream(root / "proc/self/mountinfo") << mountinfo;
  std::ofstream(root / "sys/fs/cgroup/devices/devices.list") << "c 1:3 rwm\nc 136:* rwm\n";
  const CgroupFacts c = collect_cgroup(root.string());
  EXPECT_EQ(c.hierarchy, std::optional<std::string>("v1"));
  EXPECT_EQ(c.v1_devices_path, std::optional<std::string>("/docker/4f1c2b"));
  EXPECT_EQ(c.devices_list_path, std::optional<std::string>("/sys/fs/cgroup/devices/devices.list"));
  ASSERT_TRUE(c.devices_list.present())
      << "read where the container's cgroup is mounted, not under the host's path";
  EXPECT_EQ(c.devices_list.value, "c 1:3 rwm\nc 136:* rwm");
}

TEST(FabricManagerLog, KeepsTheLinesAboutVersionsAndErrors) {
  const p2p::TempDir tmp("p2p_fm_log");
  const fs::path root = tmp.path();
  fs::create_directories(root / "var/log");
  std::ofstream(root / "var/log/fabricmanager.log")
      << "[Mar 04 2025 09:12:01] [INFO] [tid 1893] Connected to 1 node.\n"
         "[Mar 04 2025 09:12:01] [ERROR] [tid 1893] fabric manager NVIDIA GPU driver interface version 570.124.06 don't "
         "match with driver version 570.133.20. Please update with matching NVIDIA driver package.\n";
  const FabricManagerFacts fm = collect_fabric_manager(root.string());
  EXPECT_EQ(fm.log_path, "/var/log/fabricmanager.log");
  ASSERT_TRUE(fm.log_lines.present());
  ASSERT_EQ(fm.log_lines.value.size(), 1u);
  EXPECT_TRUE(contains(fm.log_lines.value[0], "interface version 570.124.06"));
}

TEST(LogParser, RecordsAndRelevance) {
  EXPECT_EQ(log_message("6,1203,5290121,-;nvidia-uvm: Loaded the UVM driver"),
            "nvidia-uvm: Loaded the UVM driver");
  EXPECT_EQ(log_message("<4>[   12.345678] NVRM: API mismatch"), "NVRM: API mismatch");
  EXPECT_TRUE(is_relevant_log_line("NVRM: GPU 0000:01:00.0: RmInitAdapter failed!"));
  EXPECT_TRUE(is_relevant_log_line(
      "nvidia 0000:01:00.0: Direct firmware load for nvidia/590.48.01/gsp_ga10x.bin failed"));
  EXPECT_FALSE(is_relevant_log_line("EXT4-fs (dm-1): mounted filesystem"));
}

}  // namespace
