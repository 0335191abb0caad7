#include "topology/environment.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/temp_dir.hpp"

namespace fs = std::filesystem;
using p2p::topo::classify_environment;
using p2p::topo::EnvironmentFacts;

namespace {

TEST(ClassifyEnvironment, HypervisorFlagAndKvmSignatureIsAVm) {
  EnvironmentFacts f;
  f.cpu_hypervisor_flag = true;
  f.hypervisor_vendor = "KVMKVMKVM";
  f.nvml_virtualization_mode = "Pass-Through";
  const auto e = classify_environment(f);
  EXPECT_EQ(e.kind, "vm");
  EXPECT_EQ(e.hypervisor, "KVM");
  EXPECT_EQ(e.virtualization_mode, "Pass-Through");
  EXPECT_EQ(e.container, "");
}

TEST(ClassifyEnvironment, LxcMarkerWinsOverNothing) {
  EnvironmentFacts f;
  f.pid1_container = "lxc";
  const auto e = classify_environment(f);
  EXPECT_EQ(e.kind, "container");
  EXPECT_EQ(e.container, "lxc");
  ASSERT_FALSE(e.evidence.empty());
  EXPECT_EQ(e.evidence.front(), "/proc/1/environ: container=lxc");
}

TEST(ClassifyEnvironment, DockerAndPodmanMarkers) {
  EnvironmentFacts docker;
  docker.dockerenv = true;
  EXPECT_EQ(classify_environment(docker).container, "docker");
  EnvironmentFacts podman;
  podman.containerenv = true;
  EXPECT_EQ(classify_environment(podman).container, "podman");
  EnvironmentFacts nspawn;
  nspawn.systemd_container = "systemd-nspawn";
  EXPECT_EQ(classify_environment(nspawn).container, "systemd-nspawn");
}

TEST(ClassifyEnvironment, NoMarkersIsBareMetal) {
  EnvironmentFacts f;
  f.self_cgroup = "0::/user.slice/user-1000.slice/session-3.scope";
  EXPECT_EQ(classify_environment(f).kind, "bare-metal");
}

TEST(ClassifyEnvironment, QemuDmiNamesTheHypervisorWithoutCpuid) {
  EnvironmentFacts f;
  f.cpu_hypervisor_flag = true;
  f.dmi_sys_vendor = "QEMU";
  EXPECT_EQ(classify_environment(f).hypervisor, "KVM/QEMU");
}

class FactTree : public ::testing::Test {
 protected:
  void write(const std::string& rel, const std::string& content) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel, std::ios::binary) << content;
  }
  p2p::TempDir tmp_{"p2p_env"};
  fs::path root_{tmp_.path()};
};

TEST_F(FactTree, ReadsTheRealH200VmCaptureAsAVm) {
  // /proc/cpuinfo flags and /proc/self/cgroup as captured on the project's H200 (a Firecracker VM).
  write("proc/cpuinfo",
        "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr hypervisor lahf_lm abm\n");
  write("proc/self/cgroup", "0::/process_api/857618216072954ae27118e390cc3e94\n");
  const auto f = p2p::topo::read_environment_facts(root_.string(), /*live=*/false);
  EXPECT_TRUE(f.cpu_hypervisor_flag);
  EXPECT_EQ(f.dmi_sys_vendor, "");
  const auto e = classify_environment(f);
  EXPECT_EQ(e.kind, "vm");
  EXPECT_EQ(e.container, "");
}

TEST_F(FactTree, ReadsContainerFromNulSeparatedEnviron) {
  // The length comes from the literal (35 bytes and its terminator): a count typed by hand read
  // one byte past it (ASan).
  static const char kEnviron[] = "PATH=/bin\0container=lxc\0TERM=xterm\0";
  write("proc/1/environ", std::string(kEnviron, sizeof kEnviron - 1));
  write("proc/cpuinfo", "flags\t: fpu sse2\n");
  const auto f = p2p::topo::read_environment_facts(root_.string(), false);
  EXPECT_EQ(f.pid1_container, "lxc");
  EXPECT_FALSE(f.cpu_hypervisor_flag);
  EXPECT_EQ(classify_environment(f).kind, "container");
}

TEST(EnvironmentJson, FactsRoundTrip) {
  EnvironmentFacts f;
  f.cpu_hypervisor_flag = true;
  f.pid1_container = "lxc";
  f.self_cgroup = "0::/";
  nlohmann::json j = f;
  const auto back = j.get<EnvironmentFacts>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_TRUE(back.cpu_hypervisor_flag);
  EXPECT_EQ(back.pid1_container, "lxc");
}

}  // namespace
