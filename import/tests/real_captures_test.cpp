// Real peer-tool outputs published in issue threads, blog posts and repositories (fixtures/
// README.md names each source): p2pBandwidthLatencyTest, nvbandwidth and nccl-tests as people
// actually ran and pasted them. Every expectation is read off the capture.
#include <gtest/gtest.h>

#include "import/p2p_bandwidth_latency.hpp"
#include "import/tests/test_support.hpp"

namespace p2p::import {
namespace {

using testing::find_figure;
using testing::fixture_text;
using testing::input_error_of;

bool has_note(const ImportedFigures& f, const std::string& part) {
  for (const auto& n : f.file.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// --- p2pBandwidthLatencyTest ---

ImportedFigures sample_figures(const std::string& name) {
  return p2p_bandwidth_latency_figures(parse_p2p_bandwidth_latency(fixture_text(name), name), name);
}

TEST(RealP2pBandwidthLatency, TwoRtx5090WithoutPeerAccessAreStagedEvenWhenP2pIsEnabled) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-2x-rtx5090-no-peer-access.txt"), "5090.txt");
  ASSERT_EQ(out.devices.size(), 2u);
  EXPECT_EQ(out.devices[1], "NVIDIA Graphics Device");
  EXPECT_EQ(out.connectivity, (std::vector<std::vector<int>>{{1, 0}, {0, 1}}));
  EXPECT_EQ(out.matrices.size(), 8u);  // 4 bandwidth, 2 latency titles with GPU and CPU timers

  const auto f = sample_figures("p2p-bandwidth-latency-2x-rtx5090-no-peer-access.txt");
  const auto* w = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu1");
  ASSERT_NE(w, nullptr);
  EXPECT_DOUBLE_EQ(w->median_gbps.value(), 38.20);
  EXPECT_EQ(w->p2p.value_or(true), false);  // "P2P=Enabled", but the pair has no peer access
  EXPECT_EQ(w->method, "staged");
  const auto* bidir = find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "sum");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(bidir->median_gbps.value(), 43.19);
  EXPECT_EQ(bidir->p2p.value_or(true), false);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_write", "gpu1", "gpu0");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 12870.0);
  EXPECT_EQ(lat->p2p.value_or(true), false);
  const auto* cpu = find_figure(f.latency, "memcpy_latency_p2p_off_cpu_timer", "gpu0", "gpu1");
  ASSERT_NE(cpu, nullptr);
  EXPECT_DOUBLE_EQ(cpu->median_ns.value(), 5910.0);
  EXPECT_TRUE(has_note(f, "staged through the host"));
}

TEST(RealP2pBandwidthLatency, FourA100PcieWherePeerAccessFollowsTheNvLinkBridges) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt"), "a100.txt");
  ASSERT_EQ(out.devices.size(), 4u);
  EXPECT_EQ(out.devices[0], "NVIDIA A100 80GB PCIe");
  EXPECT_EQ(out.connectivity[0][1], 1);
  EXPECT_EQ(out.connectivity[0][2], 0);
  EXPECT_EQ(out.connectivity[3][2], 1);

  const auto f = sample_figures("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt");
  const auto* bridged = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu1");
  ASSERT_NE(bridged, nullptr);
  EXPECT_DOUBLE_EQ(bridged->median_gbps.value(), 275.07);
  EXPECT_EQ(bridged->p2p.value_or(false), true);
  EXPECT_EQ(bridged->method, "copy_engine");
  const auto* across = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu2");
  ASSERT_NE(across, nullptr);
  EXPECT_DOUBLE_EQ(across->median_gbps.value(), 21.62);
  EXPECT_EQ(across->p2p.value_or(true), false);
  EXPECT_EQ(across->method, "staged");
  const auto* bidir = find_figure(f.bandwidth, "ce_bidir", "gpu2", "gpu3", "sum");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(bidir->median_gbps.value(), 517.45);
  const auto* local = find_figure(f.bandwidth, "device_local_ce", "gpu3", "gpu3");
  ASSERT_NE(local, nullptr);
  EXPECT_DOUBLE_EQ(local->median_gbps.value(), 1511.12);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_write", "gpu1", "gpu0");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 2220.0);
  EXPECT_EQ(lat->p2p.value_or(false), true);
}

TEST(RealP2pBandwidthLatency, EightTitanRtxReadsWithNoPeerAccessAnywhere) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-8x-titan-rtx-p2p-read.txt"), "titan.txt");
  ASSERT_EQ(out.devices.size(), 8u);
  EXPECT_EQ(out.devices[7], "TITAN RTX");
  EXPECT_EQ(out.matrices.size(), 11u);  // 5 bandwidth, 3 latency titles with two timers each
  const auto f = sample_figures("p2p-bandwidth-latency-8x-titan-rtx-p2p-read.txt");
  // Reads: row 0 reads from GPU 1, so the data flows gpu1 -> gpu0.
  const auto* read = find_figure(f.bandwidth, "ce_unidir_read", "gpu1", "gpu0");
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->median_gbps.value(), 9.96);
  EXPECT_EQ(read->p2p.value_or(true), false);
  EXPECT_EQ(read->issued_by, "gpu0");
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_read", "gpu4", "gpu5");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 11910.0);
}

TEST(RealP2pBandwidthLatency, SixteenV100OfADgx2WithTwoDigitDeviceNumbers) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-16x-v100-dgx2-p2p-read.txt"), "dgx2.txt");
  ASSERT_EQ(out.devices.size(), 16u);
  EXPECT_EQ(out.devices[15], "Tesla V100-SXM3-32GB");
  ASSERT_EQ(out.connectivity.size(), 16u);
  EXPECT_EQ(out.connectivity[15][0], 1);
  const auto f = sample_figures("p2p-bandwidth-latency-16x-v100-dgx2-p2p-read.txt");
  ASSERT_EQ(f.gpus.size(), 16u);
  const auto* read = find_figure(f.bandwidth, "ce_unidir_read", "gpu3", "gpu15");
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->median_gbps.value(), 145.51);
  EXPECT_EQ(read->p2p.value_or(false), true);
  const auto* bidir = find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "sum");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(bidir->median_gbps.value(), 270.18);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_read", "gpu0", "gpu1");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 9470.0);
}

}  // namespace
}  // namespace p2p::import
