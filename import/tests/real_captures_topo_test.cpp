// Real `nvidia-smi topo -m` / `topo -p2p` captures published in issue threads, blog posts and
// repositories (fixtures/README.md names each source). Every expectation is read off the capture,
// so a reader that shifts a column or drops a row fails here.
#include <gtest/gtest.h>

#include "common/file_io.hpp"
#include "topology/classify.hpp"
#include "topology/diff.hpp"
#include "topology/gate.hpp"
#include "topology/nvidia_smi_topo.hpp"

namespace p2p::topo {
namespace {

using topo::PathClass;

std::string capture_text_of(const std::string& name) {
  return read_text_file(std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name);
}
topo::TopologySnapshot capture_topo_m(const std::string& name) {
  return snapshot_from_nvidia_smi_topo(capture_text_of(name), name);
}

TEST(RealTopoCaptures, HgxH100WithEightNicsAndAHeaderWhoseColumnsDrift) {
  // The paste lost the alignment from NIC3 on ("NIC3  NIC4     NIC5"): cells are read by
  // position among the whitespace-separated tokens, not by column offsets.
  const auto t = capture_topo_m("topo-8x-h100-nv18-8-nics-uneven-columns.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  ASSERT_EQ(t.nics.size(), 8u);
  EXPECT_EQ(t.nvlink_count[0][7], 18);
  EXPECT_EQ(topo::matrix_label(t, 6, 1), "NV18");
  EXPECT_EQ(t.nics[3].device, "mlx5_3");
  EXPECT_EQ(t.nics[2].gpu_paths.at(2), "PIX");
  EXPECT_EQ(t.nics[4].gpu_paths.at(4), "PIX");
  EXPECT_EQ(t.nics[4].gpu_paths.at(5), "NODE");
  EXPECT_EQ(t.nics[7].gpu_paths.at(0), "SYS");
  EXPECT_EQ(t.gpus[3].cpuset, "0-47,96-143");
  EXPECT_EQ(t.gpus[4].cpuset, "48-95,144-191");
  EXPECT_EQ(t.gpus[4].numa_node, 1);
  EXPECT_TRUE(t.p2p_status.empty());
}

TEST(RealTopoCaptures, HgxH100WithThirteenNicsNamedInTheLegend) {
  const auto t = capture_topo_m("topo-8x-h100-13-nics.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  ASSERT_EQ(t.nics.size(), 13u);
  EXPECT_EQ(t.nics[10].name, "NIC10");
  EXPECT_EQ(t.nics[10].device, "mlx5_eth2");
  EXPECT_EQ(t.nics[0].device, "mlx5_ib0");
  EXPECT_EQ(t.nics[1].gpu_paths.at(0), "PXB");
  EXPECT_EQ(t.nics[1].gpu_paths.at(1), "PIX");
  EXPECT_EQ(t.nics[12].gpu_paths.at(3), "SYS");
  EXPECT_EQ(t.nics[12].gpu_paths.at(7), "NODE");
  EXPECT_EQ(t.gpus[7].cpuset, "56-111,168-223");
  EXPECT_EQ(t.gpus[0].numa_node, 0);
}

TEST(RealTopoCaptures, HgxH100FromAnOlderDriverWithoutGpuNumaIdAndAPrompt) {
  const auto t = capture_topo_m("topo-8x-h100-nv18-no-gpu-numa-id.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  EXPECT_TRUE(t.nics.empty());
  EXPECT_EQ(t.nvlink_count[5][2], 18);
  EXPECT_EQ(t.gpus[3].cpuset, "0-51,104-155");
  EXPECT_EQ(t.gpus[3].numa_node, 0);
  EXPECT_EQ(t.gpus[4].cpuset, "52-103,156-207");
  EXPECT_EQ(t.gpus[4].numa_node, 1);
}

TEST(RealTopoCaptures, FourA100PcieWithNvLinkBridgedPairs) {
  const auto t = capture_topo_m("topo-4x-a100-pcie-nv12-pairs.txt");
  ASSERT_EQ(t.gpus.size(), 4u);
  EXPECT_EQ(t.nvlink_count[0][1], 12);
  EXPECT_EQ(t.nvlink_count[2][3], 12);
  EXPECT_EQ(t.nvlink_count[1][2], 0);
  EXPECT_EQ(t.pcie_matrix[1][2], PathClass::kSys);
  EXPECT_EQ(topo::matrix_label(t, 0, 3), "SYS");
  EXPECT_EQ(topo::matrix_label(t, 3, 2), "NV12");
  EXPECT_EQ(t.gpus[3].cpuset, "72-95");
  EXPECT_EQ(t.gpus[3].numa_node, 3);  // one NUMA node per GPU on this host
}

TEST(RealTopoCaptures, EightPcieGpusBehindSwitchesWithNumaAffinityNa) {
  const auto t = capture_topo_m("topo-8x-pcie-pix-pxb-sys-numa-na.txt");
  ASSERT_EQ(t.gpus.size(), 8u);
  EXPECT_FALSE(t.pcie_hidden_by_nvlink);
  EXPECT_EQ(t.pcie_matrix[0][1], PathClass::kPix);
  EXPECT_EQ(t.pcie_matrix[0][2], PathClass::kPxb);
  EXPECT_EQ(t.pcie_matrix[3][4], PathClass::kSys);
  EXPECT_EQ(t.pcie_matrix[5][4], PathClass::kPix);
  EXPECT_EQ(t.pcie_matrix[7][6], PathClass::kPxb);
  EXPECT_EQ(t.gpus[5].cpuset, "0-95");
  EXPECT_EQ(t.gpus[5].numa_node, -1);  // "N/A" is unknown, not node 0
}

TEST(RealTopoCaptures, TwoRtx5090BehindTheHostBridgeWithTheirP2pMatrix) {
  const std::string text = capture_text_of("topo-2x-rtx5090-phb-and-p2p-rw-gns.txt");
  EXPECT_TRUE(looks_like_nvidia_smi_topo(text));
  EXPECT_TRUE(looks_like_nvidia_smi_p2p(text));
  const auto t = capture_topo_m("topo-2x-rtx5090-phb-and-p2p-rw-gns.txt");
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(t.pcie_matrix[0][1], PathClass::kPhb);
  EXPECT_EQ(t.gpus[1].cpuset, "0-63");
  ASSERT_EQ(t.p2p_status.size(), 1u);
  // "(topo -p2p rw)" above the matrix: one matrix for two letters, claimed for neither alone.
  EXPECT_EQ(t.p2p_status[0].capability, "read+write");
  EXPECT_EQ(topo::p2p_status_of(t, 1, 0).value_or(""), "GNS");

  topo::GatePolicy policy;
  policy.require_p2p = true;
  const auto gate = topo::evaluate_gate(t, std::nullopt, policy);
  EXPECT_FALSE(gate.passed);
  EXPECT_EQ(gate.p2p_check, "failed");
}

TEST(RealTopoCaptures, IndentedPasteWithAWrappedLegendAndP2pNotSupported) {
  // Every line indented, the legend wrapped by the terminal, the P2P matrix's cells pushed right.
  const auto t = capture_topo_m("topo-2x-gpu-node-wrapped-legend-and-p2p-ns.txt");
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(t.pcie_matrix[1][0], PathClass::kNode);
  EXPECT_EQ(t.gpus[0].cpuset, "0-15");
  EXPECT_EQ(t.gpus[0].numa_node, 0);
  ASSERT_EQ(t.p2p_status.size(), 1u);
  EXPECT_EQ(topo::p2p_status_of(t, 0, 1).value_or(""), "NS");
}

TEST(RealTopoCaptures, DiffOfTwoRealHgxCapturesAgreesOnEveryGpuPair) {
  const auto eight = capture_topo_m("topo-8x-h100-nv18-8-nics-uneven-columns.txt");
  const auto thirteen = capture_topo_m("topo-8x-h100-13-nics.txt");
  const auto d = topo::diff_topologies(eight, thirteen);
  EXPECT_EQ(d.pairing, "index");
  EXPECT_TRUE(d.changed.empty());  // NV18 everywhere in both: the GPU pairs agree
}

}  // namespace
}  // namespace p2p::topo
