// nvidia-smi topo -m / topo -p2p captures: one test per variant seen in the wild (see
// fixtures/README.md for which capture is real and which is written by hand).
#include "topology/nvidia_smi_topo.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "import/tests/test_support.hpp"
#include "topology/classify.hpp"
#include "topology/diff.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::topo {
namespace {

std::string fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name;
}
std::string text_of(const std::string& name) { return read_text_file(fixture(name)); }
topo::TopologySnapshot topo_m(const std::string& name) {
  return snapshot_from_nvidia_smi_topo(text_of(name), name);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(NvidiaSmiTopo, RealH200CaptureTabsAnsiAndAffinityColumns) {
  const auto t = topo_m("h200-topo-m.txt");
  EXPECT_EQ(t.source, "nvidia-smi");
  ASSERT_EQ(t.gpus.size(), 1u);
  EXPECT_EQ(t.gpus[0].pci_bus_id, "");  // the capture names none
  EXPECT_EQ(t.gpus[0].cpuset, "0-15");
  EXPECT_EQ(t.gpus[0].numa_node, 0);
  EXPECT_FALSE(t.gpus[0].link_current.gen.has_value());
  EXPECT_TRUE(t.nics.empty());
  EXPECT_TRUE(t.p2p_status.empty());
  EXPECT_TRUE(looks_like_nvidia_smi_topo(text_of("h200-topo-m.txt")));
  EXPECT_FALSE(looks_like_nvidia_smi_p2p(text_of("h200-topo-m.txt")));
}

TEST(NvidiaSmiTopo, RealH200P2pCaptureIsOneSelfCell) {
  const auto s = p2p_status_from_nvidia_smi(text_of("h200-topo-p2p-r.txt"), "h200-topo-p2p-r.txt");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].capability, "read");
  EXPECT_EQ(s[0].cells, (std::vector<std::vector<std::string>>{{"X"}}));
  EXPECT_TRUE(looks_like_nvidia_smi_p2p(text_of("h200-topo-p2p-r.txt")));
  EXPECT_FALSE(looks_like_nvidia_smi_topo(text_of("h200-topo-p2p-r.txt")));
}

TEST(NvidiaSmiTopo, VfioGuestWithTabsAndEscapesIsFlatPhb) {
  const auto t = topo_m("rtxpro6000-vm-topo.txt");
  ASSERT_EQ(t.gpus.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      EXPECT_EQ(topo::matrix_label(t, i, j), i == j ? "X" : "PHB");
}

TEST(NvidiaSmiTopo, SpacesAndLegendCutOff) {
  const auto t = topo_m("rtxpro6000-lxc-topo.txt");
  ASSERT_EQ(t.gpus.size(), 4u);
  EXPECT_EQ(topo::matrix_label(t, 0, 1), "NODE");
  EXPECT_EQ(topo::matrix_label(t, 1, 2), "SYS");
  EXPECT_EQ(t.gpus[2].numa_node, 1);
  EXPECT_EQ(t.gpus[2].cpuset, "24-47,72-95");
}

// A published paste (vm/tests/fixtures/field/aikitoria-12-2x-rtx5070-phb) glues the command onto
// the header it printed: the command is dropped, prose before GPU0 is not taken for one.
TEST(NvidiaSmiTopo, ACommandGluedOntoTheHeaderIsDropped) {
  const auto t = snapshot_from_nvidia_smi_topo(
      "nvidia-smi topo -m                   GPU0    GPU1    CPU Affinity    NUMA Affinity\n"
      "GPU0     X      PHB     0-23    0\nGPU1    PHB      X      0-23    0\n",
      "glued.txt");
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(topo::matrix_label(t, 0, 1), "PHB");
  EXPECT_THROW(snapshot_from_nvidia_smi_topo("my two cards GPU0 GPU1\nGPU0 X PHB\nGPU1 PHB X\n",
                                             "prose.txt"),
               InputError);
}

TEST(NvidiaSmiTopo, NicRowsAndColumnsAreKeptApartFromGpus) {
  const auto t = topo_m("hgx-h100-nics-topo.txt");
  ASSERT_EQ(t.gpus.size(), 8u);  // 18 devices in the header, 8 of them GPUs
  ASSERT_EQ(t.nics.size(), 10u);
  EXPECT_EQ(t.nics[0].name, "NIC0");
  EXPECT_EQ(t.nics[0].device, "mlx5_0");  // from the NIC legend
  EXPECT_EQ(t.nics[4].gpu_paths.at(4), "PIX");
  EXPECT_EQ(t.nvlink_count[0][7], 18);
  EXPECT_EQ(topo::matrix_label(t, 3, 5), "NV18");
  EXPECT_TRUE(t.pcie_hidden_by_nvlink);
  EXPECT_EQ(t.gpus[5].numa_node, 1);
}

TEST(NvidiaSmiTopo, SnapshotJsonWritesUnknownsAsNullAndReadsThemBack) {
  const auto t = topo_m("hgx-h100-nics-topo.txt");
  const nlohmann::json j = t;
  EXPECT_TRUE(j.at("gpus").at(0).at("pci_bus_id").is_null());
  EXPECT_TRUE(j.at("pcie_matrix").at(0).at(1).is_null());  // hidden under NV18
  EXPECT_EQ(j.at("matrix").at(0).at(1), "NV18");
  EXPECT_EQ(j.at("nics").size(), 10u);
  const auto back = topo::snapshot_from_json(j, "round trip");
  EXPECT_EQ(back.nics.size(), 10u);
  EXPECT_TRUE(back.pcie_hidden_by_nvlink);
  EXPECT_EQ(topo::diff_topologies(t, back).changed.size(), 0u);
}

TEST(NvidiaSmiTopo, OlderLayoutWithNicsNamedByDeviceAndNoGpuNumaColumn) {
  const auto t = topo_m("dgx-a100-nv12-topo.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  ASSERT_EQ(t.nics.size(), 2u);
  EXPECT_EQ(t.nics[1].name, "mlx5_1");
  EXPECT_EQ(t.nics[1].device, "mlx5_1");
  EXPECT_EQ(t.gpus[0].numa_node, 3);
  EXPECT_EQ(t.nvlink_count[2][6], 12);
}

TEST(NvidiaSmiTopo, TopoAndP2pInOneFile) {
  const auto t = topo_m("rtx5090-workstation-topo-and-p2p.txt");
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(topo::matrix_label(t, 0, 1), "PHB");
  ASSERT_EQ(t.p2p_status.size(), 1u);
  EXPECT_EQ(t.p2p_status[0].capability, "write");  // from the "topo -p2p w" line above it
  EXPECT_EQ(topo::p2p_status_of(t, 0, 1).value_or(""), "GNS");
}

TEST(NvidiaSmiTopo, P2pCaptureAnswersTheGatesRequireP2p) {
  auto lxc = topo_m("rtxpro6000-lxc-topo.txt");
  add_p2p_status(lxc, p2p_status_from_nvidia_smi(text_of("rtxpro6000-lxc-p2p-w.txt"), "w"), "w");
  topo::GatePolicy policy;
  policy.require_p2p = true;
  const auto blocked = topo::evaluate_gate(lxc, std::nullopt, policy);
  EXPECT_FALSE(blocked.passed);
  EXPECT_EQ(blocked.p2p_check, "failed");
  EXPECT_EQ(blocked.blocking(), 8u);  // ordered pairs across the two sockets
  bool named_cns = false;
  for (const auto& r : blocked.reasons)
    named_cns |= r.message.find("CNS (chipset not supported)") != std::string::npos;
  EXPECT_TRUE(named_cns);

  auto vm = topo_m("rtxpro6000-vm-topo.txt");
  add_p2p_status(vm, p2p_status_from_nvidia_smi(text_of("rtxpro6000-vm-p2p-r.txt"), "r"), "r");
  const auto passed = topo::evaluate_gate(vm, std::nullopt, policy);
  EXPECT_TRUE(passed.passed);
  EXPECT_EQ(passed.p2p_check, "passed");
}

TEST(NvidiaSmiTopo, DiffOfTwoCapturesMatchesByIndexAndSaysWhy) {
  const auto vm = topo_m("rtxpro6000-vm-topo.txt");
  const auto lxc = topo_m("rtxpro6000-lxc-topo.txt");
  const auto d = topo::diff_topologies(vm, lxc);
  EXPECT_EQ(d.pairing, "index");
  EXPECT_TRUE(d.bus_ids_unknown);
  EXPECT_EQ(d.changed.size(), 6u);
  const std::string text = topo::format_diff_text(d, "vm", "lxc");
  EXPECT_NE(text.find("carries no PCI bus ids"), std::string::npos) << text;
  EXPECT_NE(text.find("PHB -> NODE"), std::string::npos) << text;
}

TEST(NvidiaSmiTopo, P2pStatusOfAnotherGpuCountIsRefused) {
  auto t = topo_m("h200-topo-m.txt");
  const auto s = p2p_status_from_nvidia_smi(text_of("rtxpro6000-vm-p2p-r.txt"), "r.txt");
  EXPECT_NE(error_of([&] {
              add_p2p_status(t, s, "r.txt");
            }).find("r.txt: the topo -p2p capture has 4 GPUs"),
            std::string::npos);
}

TEST(NvidiaSmiTopo, CutCaptureIsOneLineNamingTheFile) {
  const std::string e = error_of([] { topo_m("bad-cut-topo.txt"); });
  EXPECT_EQ(
      e,
      "bad-cut-topo.txt: not an nvidia-smi topo -m capture: the header names 4 GPUs but 2 GPU rows follow "
      "(cut short?)");
}

TEST(NvidiaSmiTopo, MangledCellIsNamed) {
  const std::string e = error_of([] { topo_m("bad-mangled-topo.txt"); });
  EXPECT_NE(
      e.find(
          "bad-mangled-topo.txt: not an nvidia-smi topo -m capture: row GPU1, column GPU0: \"P#B\""),
      std::string::npos)
      << e;
}

TEST(NvidiaSmiTopo, OtherToolsOutputIsRefused) {
  const std::string e =
      error_of([] { snapshot_from_nvidia_smi_topo("nvbandwidth Version: v0.8\n", "nvbw.txt"); });
  EXPECT_NE(e.find("nvbw.txt: not an nvidia-smi topo -m capture: no matrix"), std::string::npos)
      << e;
  EXPECT_FALSE(looks_like_nvidia_smi_topo("Running host_to_device_memcpy_ce.\n"));
  EXPECT_NE(error_of([] {
              p2p_status_from_nvidia_smi("hello\n", "x.txt");
            }).find("x.txt: not an nvidia-smi topo -p2p"),
            std::string::npos);
}

}  // namespace
}  // namespace p2p::topo

namespace p2p::topo {
namespace {

// The rtx5090 workstation capture with the command line above its P2P matrix replaced.
std::string p2p_capture_run_as(const std::string& command) {
  std::string text = import::testing::fixture_text("rtx5090-workstation-topo-and-p2p.txt");
  const auto at = text.find("nvidia-smi topo -p2p w");
  EXPECT_NE(at, std::string::npos);
  text.replace(at, std::string("nvidia-smi topo -p2p w").size(), command);
  return text;
}

std::string capability_when_run_as(const std::string& command) {
  const auto s = p2p_status_from_nvidia_smi(p2p_capture_run_as(command), "p2p.txt");
  return s.size() == 1 ? s[0].capability : "(" + std::to_string(s.size()) + " matrices)";
}

// The capability was the first letter after -p2p: "rw" was recorded as "read", although
// nvidia-smi printed one matrix for both letters.
TEST(NvidiaSmiP2pCapability, EachLetterAndEachCombinationIsRecordedAsNamed) {
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p r"), "read");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p w"), "write");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p n"), "nvlink");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p a"), "atomics");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p p"), "prop");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p rw"), "read+write");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p wr"), "read+write");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo --p2pstatus=na"), "nvlink+atomics");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo --p2pstatus `w`"), "write");
  EXPECT_EQ(capability_when_run_as("nvidia-smi topo -p2p status"), "read");  // prose: unnamed
}

TEST(NvidiaSmiP2pCapability, ALetterNvidiaSmiHasNotIsRefused) {
  EXPECT_EQ(import::testing::input_error_of([] {
              p2p_status_from_nvidia_smi(p2p_capture_run_as("nvidia-smi topo -p2p x"), "p2p.txt");
            }),
            "p2p.txt: not an nvidia-smi topo -p2p capture: \"-p2p x\": nvidia-smi's capability "
            "letters are r, w, n, a and p (read, write, nvlink, atomics, prop)");
}

// A read+write matrix answers peer access as a read or write one does: beside a read capture
// it is not passed over as NVLink, atomics and prop captures are.
TEST(NvidiaSmiP2pCapability, ReadPlusWriteAnswersPeerAccess) {
  topo::TopologySnapshot t;
  t.p2p_status.push_back({"read", {{"X", "OK"}, {"OK", "X"}}});
  t.p2p_status.push_back({"read+write", {{"X", "GNS"}, {"GNS", "X"}}});
  EXPECT_EQ(topo::p2p_status_of(t, 0, 1).value_or(""), "GNS");
  t.p2p_status[1].capability = "nvlink";
  EXPECT_EQ(topo::p2p_status_of(t, 0, 1).value_or(""), "OK");
}

}  // namespace
}  // namespace p2p::topo
