// Discovery from the hwloc XML fixtures: every GPU field and the full matrices.
#include <gtest/gtest.h>

#include "topology/classify.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

using testing::fixture;
using Matrix = std::vector<std::vector<std::string>>;

Matrix pcie_strings(const TopologySnapshot& t) {
  Matrix m;
  for (const auto& row : t.pcie_matrix) {
    m.emplace_back();
    for (PathClass c : row) m.back().push_back(to_string(c));
  }
  return m;
}

std::vector<std::string> bus_ids(const TopologySnapshot& t) {
  std::vector<std::string> ids;
  for (const Gpu& g : t.gpus) ids.push_back(g.pci_bus_id);
  return ids;
}

TEST(FixtureRtxPro6000Vm, EightGpusEveryPairPhb) {
  const auto t = snapshot_from_hwloc_xml(fixture("rtxpro6000-vm.xml"));
  EXPECT_EQ(bus_ids(t), (std::vector<std::string>{"0000:01:00.0", "0000:02:00.0", "0000:03:00.0",
                                                  "0000:04:00.0", "0000:05:00.0", "0000:06:00.0",
                                                  "0000:07:00.0", "0000:08:00.0"}));
  Matrix expected(8, std::vector<std::string>(8, "PHB"));
  for (int i = 0; i < 8; ++i) expected[i][i] = "X";
  EXPECT_EQ(pcie_strings(t), expected);
  EXPECT_EQ(display_matrix(t), expected);
  for (std::size_t i = 0; i < 8; ++i) {
    const Gpu& g = t.gpus[i];
    EXPECT_EQ(g.device_id, 0x2bb5);
    EXPECT_EQ(g.vendor_id, 0x10de);
    EXPECT_EQ(g.name, "NVIDIA RTX PRO 6000 Blackwell Server Edition");
    EXPECT_EQ(g.numa_node, 0);
    EXPECT_EQ(g.cpuset, "0-31");
    EXPECT_EQ(g.link_current.gen, 5);
    EXPECT_EQ(g.link_current.width, 16);
    EXPECT_FALSE(g.link_max.gen);  // an XML records the negotiated link only
    EXPECT_EQ(g.host_bridge, "0000:[00-08]");
    EXPECT_EQ(g.pcie_path, std::vector<std::string>{"0000:00:02." + std::to_string(i)});
  }
  EXPECT_EQ(t.hostname, "rtx-vm");
}

TEST(FixtureRtxPro6000Lxc, NodeWithinASocketSysAcross) {
  const auto t = snapshot_from_hwloc_xml(fixture("rtxpro6000-lxc.xml"));
  // The audio functions (10de:22e8, class 0403) at .1 are not GPUs.
  EXPECT_EQ(bus_ids(t), (std::vector<std::string>{"0000:01:00.0", "0000:21:00.0", "0000:41:00.0",
                                                  "0000:61:00.0", "0000:81:00.0", "0000:a1:00.0",
                                                  "0000:c1:00.0", "0000:e1:00.0"}));
  const Matrix expected = {
      {"X", "NODE", "NODE", "NODE", "SYS", "SYS", "SYS", "SYS"},
      {"NODE", "X", "NODE", "NODE", "SYS", "SYS", "SYS", "SYS"},
      {"NODE", "NODE", "X", "NODE", "SYS", "SYS", "SYS", "SYS"},
      {"NODE", "NODE", "NODE", "X", "SYS", "SYS", "SYS", "SYS"},
      {"SYS", "SYS", "SYS", "SYS", "X", "NODE", "NODE", "NODE"},
      {"SYS", "SYS", "SYS", "SYS", "NODE", "X", "NODE", "NODE"},
      {"SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "X", "NODE"},
      {"SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "NODE", "X"},
  };
  EXPECT_EQ(pcie_strings(t), expected);
  EXPECT_EQ(display_matrix(t), expected);
  EXPECT_EQ(t.gpus[0].host_bridge, "0000:[00-1f]");
  EXPECT_EQ(t.gpus[5].host_bridge, "0000:[a0-bf]");
  EXPECT_EQ(t.gpus[5].pcie_path, std::vector<std::string>{"0000:a0:01.1"});
  EXPECT_EQ(t.gpus[3].numa_node, 0);
  EXPECT_EQ(t.gpus[4].numa_node, 1);
  EXPECT_EQ(t.gpus[3].cpuset, "0-31");
  EXPECT_EQ(t.gpus[4].cpuset, "32-63");
}

TEST(FixturePcieSwitch, PixPxbPhbAndNvlinkBridges) {
  const auto t = snapshot_from_hwloc_xml(fixture("pcie-switch.xml"));
  EXPECT_EQ(bus_ids(t), (std::vector<std::string>{"0000:05:00.0", "0000:06:00.0", "0000:09:00.0",
                                                  "0000:0a:00.0", "0000:12:00.0", "0000:13:00.0"}));
  EXPECT_EQ(pcie_strings(t), (Matrix{
                                 {"X", "PIX", "PXB", "PXB", "PHB", "PHB"},
                                 {"PIX", "X", "PXB", "PXB", "PHB", "PHB"},
                                 {"PXB", "PXB", "X", "PIX", "PHB", "PHB"},
                                 {"PXB", "PXB", "PIX", "X", "PHB", "PHB"},
                                 {"PHB", "PHB", "PHB", "PHB", "X", "PIX"},
                                 {"PHB", "PHB", "PHB", "PHB", "PIX", "X"},
                             }));
  EXPECT_EQ(display_matrix(t), (Matrix{
                                   {"X", "NV12", "PXB", "PXB", "PHB", "PHB"},
                                   {"NV12", "X", "PXB", "PXB", "PHB", "PHB"},
                                   {"PXB", "PXB", "X", "NV12", "PHB", "PHB"},
                                   {"PXB", "PXB", "NV12", "X", "PHB", "PHB"},
                                   {"PHB", "PHB", "PHB", "PHB", "X", "NV12"},
                                   {"PHB", "PHB", "PHB", "PHB", "NV12", "X"},
                               }));
  EXPECT_EQ(t.gpus[0].pcie_path,
            (std::vector<std::string>{"0000:00:01.0", "0000:01:00.0", "0000:02:00.0",
                                      "0000:03:00.0", "0000:04:00.0"}));
  EXPECT_EQ(t.gpus[0].name, "NVIDIA A100 80GB PCIe");
  // 31.508 GB/s is Gen4 x16 or Gen5 x8: the XML cannot say which.
  EXPECT_FALSE(t.gpus[0].link_current.gen);
  EXPECT_FALSE(t.gpus[0].link_current.width);
  EXPECT_DOUBLE_EQ(*t.gpus[0].link_current.gbps, 31.508);
}

TEST(FixtureHgxNvswitch, EveryPairIsNv18ThroughTheSwitches) {
  const auto t = snapshot_from_hwloc_xml(fixture("hgx-nvswitch.xml"));
  EXPECT_EQ(bus_ids(t), (std::vector<std::string>{"0000:12:00.0", "0000:13:00.0", "0000:22:00.0",
                                                  "0000:23:00.0"}));
  EXPECT_EQ(pcie_strings(t), (Matrix{{"X", "PIX", "PHB", "PHB"},
                                     {"PIX", "X", "PHB", "PHB"},
                                     {"PHB", "PHB", "X", "PIX"},
                                     {"PHB", "PHB", "PIX", "X"}}));
  EXPECT_EQ(display_matrix(t), (Matrix{{"X", "NV18", "NV18", "NV18"},
                                       {"NV18", "X", "NV18", "NV18"},
                                       {"NV18", "NV18", "X", "NV18"},
                                       {"NV18", "NV18", "NV18", "X"}}));
}

TEST(FixtureH200Vm, TheRealCaptureIsOneH200OnTheHostBridge) {
  const auto t = snapshot_from_hwloc_xml(fixture("h200-vm.xml"));
  ASSERT_EQ(t.gpus.size(), 1u);
  const Gpu& g = t.gpus[0];
  EXPECT_EQ(g.pci_bus_id, "0000:00:06.0");
  EXPECT_EQ(g.device_id, 0x2335);
  EXPECT_EQ(g.name, "NVIDIA H200");  // from the OpenCL device hwloc hung beside it
  EXPECT_EQ(g.numa_node, 0);
  EXPECT_EQ(g.cpuset, "0-15");
  EXPECT_EQ(g.link_current.gen, 5);
  EXPECT_EQ(g.link_current.width, 16);
  EXPECT_EQ(g.host_bridge, "0000:[00-00]");
  EXPECT_TRUE(g.pcie_path.empty());
  EXPECT_EQ(display_matrix(t), (Matrix{{"X"}}));
  EXPECT_EQ(t.hostname, "vm");
}

TEST(FixtureEnvironment, AnXmlAloneSaysUnknown) {
  const auto t = snapshot_from_hwloc_xml(fixture("rtxpro6000-vm.xml"));
  EXPECT_EQ(t.environment.kind, "unknown");
  EXPECT_EQ(t.environment.evidence, std::vector<std::string>{"from XML"});
}

TEST(FixtureEnvironment, SidecarFactsAreClassified) {
  auto vm = snapshot_from_hwloc_xml(fixture("rtxpro6000-vm.xml"));
  apply_environment_facts_file(vm, fixture("rtxpro6000-vm.environment.json"));
  EXPECT_EQ(vm.environment.kind, "vm");
  EXPECT_EQ(vm.environment.hypervisor, "KVM");
  EXPECT_EQ(vm.environment.virtualization_mode, "Pass-Through");
  EXPECT_EQ(vm.environment.evidence.back(), "facts recorded in rtxpro6000-vm.environment.json");

  auto lxc = snapshot_from_hwloc_xml(fixture("rtxpro6000-lxc.xml"));
  apply_environment_facts_file(lxc, fixture("rtxpro6000-lxc.environment.json"));
  EXPECT_EQ(lxc.environment.kind, "container");
  EXPECT_EQ(lxc.environment.container, "lxc");

  auto h200 = snapshot_from_hwloc_xml(fixture("h200-vm.xml"));
  apply_environment_facts_file(h200, fixture("h200-vm.environment.json"));
  EXPECT_EQ(h200.environment.kind, "vm");
}

TEST(LoadTopology, DetectsXmlAndSnapshotJson) {
  const auto from_xml = load_topology(fixture("pcie-switch.xml"));
  EXPECT_EQ(from_xml.gpus.size(), 6u);
  const auto from_json = load_topology(testing::golden("rtxpro6000-lxc.json"));
  EXPECT_EQ(from_json.gpus.size(), 8u);
  EXPECT_EQ(from_json.environment.kind, "container");
  EXPECT_EQ(from_json.environment.container, "lxc");
  EXPECT_EQ(from_json.pcie_matrix[0][4], PathClass::kSys);
  const auto vm = load_topology(testing::golden("rtxpro6000-vm.json"));
  EXPECT_EQ(vm.environment.kind, "vm");
  EXPECT_EQ(vm.environment.hypervisor, "KVM");
}

}  // namespace
}  // namespace p2p::topo
