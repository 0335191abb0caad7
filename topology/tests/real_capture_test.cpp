// Real machines' hwloc XML (fixtures/README.md names each source): the class of chosen GPU pairs,
// read off each XML by hand (the bridges between the two GPUs, their host bridges, their NUMA
// nodes), and what the gate then says under a typical policy.
#include <gtest/gtest.h>

#include "topology/classify.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

using testing::fixture;

std::string pcie(const TopologySnapshot& t, std::size_t a, std::size_t b) {
  return to_string(t.pcie_matrix.at(a).at(b));
}

std::vector<std::string> capture_bus_ids(const TopologySnapshot& t) {
  std::vector<std::string> ids;
  for (const Gpu& g : t.gpus) ids.push_back(g.pci_bus_id);
  return ids;
}

GatePolicy capture_policy(const std::string& text) {
  return policy_from_json(nlohmann::json::parse(text), "policy.json");
}

std::vector<std::string> blocked(const GateDecision& d) {
  std::vector<std::string> out;
  for (const auto& r : d.reasons)
    if (r.verdict == GateVerdict::kBlock) out.push_back(r.message);
  return out;
}

// DGX-2: per socket two host bridges, each with a first-level PLX switch whose downstream ports
// lead to two second-level switches of two GPUs each. NVIDIA's `nvidia-smi topo -mp` of a DGX-2
// (GPUDirect Storage guide) says exactly this for GPU0's row: PIX PXB PXB NODE x4 SYS x8.
TEST(RealCaptureDgx2, TwoLevelSwitchesGivePixAndPxbHostBridgesNodeSocketsSys) {
  const auto t = load_topology(fixture("dgx2-v100.xml"));
  ASSERT_EQ(t.gpus.size(), 16u);  // the 12 NVSwitches (class 0680, one unreadable) are not GPUs
  EXPECT_EQ(t.gpus[0].pci_bus_id, "0000:34:00.0");
  EXPECT_EQ(t.gpus[15].pci_bus_id, "0000:e7:00.0");
  EXPECT_EQ(t.gpus[0].name, "Tesla V100-SXM3-32GB-H");  // from the nvml0 OS device
  // GPU0 34:00.0 and GPU1 36:00.0 sit below ports 33:00.0 and 33:10.0 of one second-level switch.
  EXPECT_EQ(t.gpus[0].pcie_path,
            (std::vector<std::string>{"0000:2b:00.0", "0000:2c:00.0", "0000:2d:04.0",
                                      "0000:32:00.0", "0000:33:00.0"}));
  EXPECT_EQ(pcie(t, 0, 1), "PIX");
  // GPU2 39:00.0 is under the other second-level switch (2d:0c.0) of the same first-level one.
  EXPECT_EQ(pcie(t, 0, 2), "PXB");
  EXPECT_EQ(pcie(t, 1, 3), "PXB");
  // GPU4 57:00.0: host bridge [4e-67], the same socket and NUMA node 0 as [2b-3b].
  EXPECT_EQ(t.gpus[4].host_bridge, "0000:[4e-67]");
  EXPECT_EQ(pcie(t, 0, 4), "NODE");
  EXPECT_EQ(pcie(t, 3, 7), "NODE");
  // GPU8 b7:00.0 on the second socket.
  EXPECT_EQ(t.gpus[8].numa_node, 1);
  EXPECT_EQ(pcie(t, 0, 8), "SYS");
  EXPECT_EQ(pcie(t, 7, 15), "SYS");
  EXPECT_EQ(pcie(t, 8, 9), "PIX");
  EXPECT_EQ(pcie(t, 8, 12), "NODE");
}

TEST(RealCaptureDgx2, SixLinksIntoTheSwitchesAreNv6OnEveryPair) {
  // Each V100 has one 25000 MB/s link to each of the six NVSwitches of its baseboard; one of
  // them (66:00.0) reads PCI class 0000 and is known by hwloc's NVSwitch subtype alone.
  const auto t = load_topology(fixture("dgx2-v100.xml"));
  for (std::size_t i = 0; i < 16; ++i) {
    for (std::size_t j = 0; j < 16; ++j) {
      if (i != j) {
        EXPECT_EQ(matrix_label(t, i, j), "NV6") << i << "-" << j;
      }
    }
  }
  // So a policy asking for switch-local pairs passes on NVLink, the PCIe classes aside.
  const auto d =
      evaluate_gate(t, std::nullopt, capture_policy(R"({"min_gpus": 16, "max_path": "PIX"})"));
  EXPECT_TRUE(d.passed);
  EXPECT_EQ(d.blocking(), 0u);
}

// POWER8 Minsky: every GPU has its own PCI domain (host bridge); two per socket.
TEST(RealCapturePower8, OwnHostBridgePerGpuIsNodeWithinASocketAndNvlinkPairsAreNv2) {
  const auto t = load_topology(fixture("power8-p100-nvlink.xml"));
  EXPECT_EQ(capture_bus_ids(t), (std::vector<std::string>{"0002:01:00.0", "0003:01:00.0",
                                                          "000a:01:00.0", "000b:01:00.0"}));
  EXPECT_EQ(t.gpus[0].name, "Tesla P100-SXM2-16GB");
  EXPECT_EQ(pcie(t, 0, 1), "NODE");
  EXPECT_EQ(pcie(t, 2, 3), "NODE");
  EXPECT_EQ(pcie(t, 0, 2), "SYS");
  EXPECT_EQ(pcie(t, 1, 3), "SYS");
  // NVLinkBandwidth 40000 MB/s between GPU0-GPU1 and GPU2-GPU3: two NVLink 1.0 links (20000 each).
  EXPECT_EQ(matrix_label(t, 0, 1), "NV2");
  EXPECT_EQ(matrix_label(t, 2, 3), "NV2");
  EXPECT_EQ(matrix_label(t, 0, 2), "SYS");  // no NVLink across the sockets: PCIe shows
  const auto d = evaluate_gate(t, std::nullopt, capture_policy(R"({"max_path": "NODE"})"));
  EXPECT_EQ(blocked(d), (std::vector<std::string>{
                            "GPU0-GPU2: SYS is worse than max_path NODE",
                            "GPU0-GPU3: SYS is worse than max_path NODE",
                            "GPU1-GPU2: SYS is worse than max_path NODE",
                            "GPU1-GPU3: SYS is worse than max_path NODE",
                        }));
}

// X58 dual-IOH host: GPU0 on the first socket's I/O hub, GPU1 and GPU2 on root ports of the
// second. The XML has no GPU OS device and no PCI name for them: vendor 10de and class 0302 only.
TEST(RealCaptureX58, GpusKnownByVendorAndClassOnly) {
  const auto t = load_topology(fixture("x58-m2070-no-osdev.xml"));
  EXPECT_EQ(capture_bus_ids(t),
            (std::vector<std::string>{"0000:06:00.0", "0000:11:00.0", "0000:14:00.0"}));
  for (const Gpu& g : t.gpus) {
    EXPECT_EQ(g.device_id, 0x06d2);
    EXPECT_EQ(g.name, "");
  }
  EXPECT_EQ(t.gpus[1].pcie_path, std::vector<std::string>{"0000:10:07.0"});
  EXPECT_EQ(t.gpus[2].pcie_path, std::vector<std::string>{"0000:10:03.0"});
  EXPECT_EQ(pcie(t, 1, 2), "PHB");
  EXPECT_EQ(pcie(t, 0, 1), "SYS");
  EXPECT_EQ(pcie(t, 0, 2), "SYS");
  const auto d =
      evaluate_gate(t, std::nullopt, capture_policy(R"({"min_gpus": 3, "forbid": ["SYS"]})"));
  EXPECT_EQ(d.blocking(), 2u);
}

// hwloc 1.x XML (no version attribute, NUMA nodes above packages): hwloc 2 reads it whole.
TEST(RealCaptureK80Hwloc1, EachBoardsSwitchIsPixAndTheBoardsAreSys) {
  const auto t = load_topology(fixture("k80-two-sockets-hwloc1.xml"));
  EXPECT_EQ(capture_bus_ids(t), (std::vector<std::string>{"0000:06:00.0", "0000:07:00.0",
                                                          "0000:84:00.0", "0000:85:00.0"}));
  EXPECT_EQ(t.gpus[0].name, "GK210GL [Tesla K80]");  // the PCI name: no CUDA/NVML device
  EXPECT_EQ(t.hostname, "test-gpu-node");
  // 04:00.0 is the PEX 8747's upstream port, 05:08.0 and 05:10.0 its downstream ports.
  EXPECT_EQ(t.gpus[0].pcie_path,
            (std::vector<std::string>{"0000:00:03.0", "0000:04:00.0", "0000:05:08.0"}));
  EXPECT_EQ(pcie(t, 0, 1), "PIX");
  EXPECT_EQ(pcie(t, 2, 3), "PIX");
  EXPECT_EQ(t.gpus[0].numa_node, 0);
  EXPECT_EQ(t.gpus[2].numa_node, 1);
  EXPECT_EQ(t.gpus[2].cpuset, "8-15");
  EXPECT_EQ(pcie(t, 0, 2), "SYS");
  EXPECT_EQ(pcie(t, 1, 3), "SYS");
  EXPECT_EQ(evaluate_gate(t, std::nullopt, capture_policy(R"({"max_path": "PIX"})")).blocking(),
            4u);
}

// AMD EPYC in NPS-4 mode: four NUMA nodes per socket and each A100 on a host bridge of its own
// node. nvidia-smi calls every pair across NUMA nodes SYS, within one socket too.
TEST(RealCaptureJuwelsBooster, NpsFourMakesEveryPairSysEvenWithinASocket) {
  const auto t = load_topology(fixture("juwels-booster-a100.xml"));
  EXPECT_EQ(capture_bus_ids(t), (std::vector<std::string>{"0000:03:00.0", "0000:44:00.0",
                                                          "0000:84:00.0", "0000:c4:00.0"}));
  EXPECT_EQ(t.gpus[0].numa_node, 3);
  EXPECT_EQ(t.gpus[1].numa_node, 1);  // the same package as GPU0
  EXPECT_EQ(t.gpus[2].numa_node, 7);
  EXPECT_EQ(t.gpus[3].numa_node, 5);
  EXPECT_EQ(t.gpus[0].name, "");                        // no OS device, no PCI name
  EXPECT_EQ(t.gpus[0].link_current.gen, std::nullopt);  // 31.507692 GB/s: Gen4 x16 or Gen5 x8
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      if (i != j) {
        EXPECT_EQ(pcie(t, i, j), "SYS") << i << "-" << j;
      }
    }
  }
  const auto d =
      evaluate_gate(t, std::nullopt, capture_policy(R"({"min_gpus": 4, "max_path": "NODE"})"));
  EXPECT_FALSE(d.passed);
  EXPECT_EQ(d.blocking(), 6u);
}

TEST(RealCaptureJuwelsCluster, Hwloc1SwitchPerSocketIsPixAndSysAcross) {
  const auto t = load_topology(fixture("juwels-cluster-v100-hwloc1.xml"));
  EXPECT_EQ(capture_bus_ids(t), (std::vector<std::string>{"0000:5d:00.0", "0000:5e:00.0",
                                                          "0000:88:00.0", "0000:89:00.0"}));
  // Root port 5a:00.0, PEX 8764 upstream 5b:00.0, downstream 5c:00.0 and 5c:08.0.
  EXPECT_EQ(t.gpus[1].pcie_path,
            (std::vector<std::string>{"0000:5a:00.0", "0000:5b:00.0", "0000:5c:08.0"}));
  EXPECT_EQ(pcie(t, 0, 1), "PIX");
  EXPECT_EQ(pcie(t, 2, 3), "PIX");
  EXPECT_EQ(pcie(t, 1, 2), "SYS");
  const auto d = evaluate_gate(t, std::nullopt, capture_policy(R"({"forbid": ["SYS"]})"));
  EXPECT_EQ(d.blocking(), 4u);
}

// Host bridges hung on the machine (no PCI locality from the firmware): the GPUs' NUMA nodes
// are unknown, and two unknown nodes must not read as one node (NODE): the buses 00 and 80 are
// the two sockets' root complexes.
TEST(RealCaptureJuropa3, UnknownLocalityOnBothSidesIsSysNotNode) {
  const auto t = load_topology(fixture("juropa3-k20x-hwloc1.xml"));
  EXPECT_EQ(capture_bus_ids(t), (std::vector<std::string>{"0000:01:00.0", "0000:82:00.0"}));
  EXPECT_EQ(t.gpus[0].numa_node, -1);
  EXPECT_EQ(t.gpus[1].numa_node, -1);
  EXPECT_NE(t.gpus[0].host_bridge, t.gpus[1].host_bridge);
  EXPECT_EQ(pcie(t, 0, 1), "SYS");
  EXPECT_EQ(evaluate_gate(t, std::nullopt, capture_policy(R"({"max_path": "NODE"})")).blocking(),
            1u);
}

}  // namespace
}  // namespace p2p::topo
