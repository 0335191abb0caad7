// p2pBandwidthLatencyTest: the current layout with --p2p_read, the older one, and a cut file.
#include "import/p2p_bandwidth_latency.hpp"

#include <gtest/gtest.h>

#include "import/tests/test_support.hpp"

namespace p2p::import {
namespace {

using testing::find_figure;
using testing::fixture_text;
using testing::input_error_of;

TEST(P2pBandwidthLatency, EveryMatrixWithP2pEnabledAndDisabled) {
  const auto out =
      parse_p2p_bandwidth_latency(fixture_text("p2p-bandwidth-latency-2gpu-p2p-read.txt"), "s.txt");
  ASSERT_EQ(out.devices.size(), 2u);
  EXPECT_EQ(out.connectivity, (std::vector<std::vector<int>>{{1, 1}, {1, 1}}));
  ASSERT_EQ(out.matrices.size(), 11u);  // 5 bandwidth, 3 latency x (GPU, CPU timer)
  EXPECT_EQ(out.matrices[5].timer, "GPU");
  EXPECT_EQ(out.matrices[6].timer, "CPU");
}

TEST(P2pBandwidthLatency, FiguresByMeaning) {
  const auto f = p2p_bandwidth_latency_figures(
      parse_p2p_bandwidth_latency(fixture_text("p2p-bandwidth-latency-2gpu-p2p-read.txt"), "s.txt"),
      "s.txt");
  const auto* w = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu1");
  ASSERT_NE(w, nullptr);
  EXPECT_DOUBLE_EQ(w->median_gbps.value(), 54.81);
  EXPECT_EQ(w->bytes, 160000000u);
  EXPECT_EQ(w->p2p.value_or(false), true);
  // Reads: row 0 reads from GPU 1, so the data flows gpu1 -> gpu0.
  const auto* r = find_figure(f.bandwidth, "ce_unidir_read", "gpu1", "gpu0");
  ASSERT_NE(r, nullptr);
  EXPECT_DOUBLE_EQ(r->median_gbps.value(), 53.12);
  const auto* off = find_figure(f.bandwidth, "staged", "gpu1", "gpu0");
  ASSERT_NE(off, nullptr);
  EXPECT_EQ(off->p2p.value_or(true), false);
  EXPECT_NE(find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "sum"), nullptr);
  EXPECT_NE(find_figure(f.bandwidth, "device_local_ce", "gpu1", "gpu1"), nullptr);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_write", "gpu0", "gpu1");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 410.0);  // printed in us, kept in ns
  EXPECT_EQ(lat->source->unit, "us");
  EXPECT_EQ(find_figure(f.latency, "latency_peer", "gpu0", "gpu1"),
            nullptr);  // a memcpy is not a dependent load
}

TEST(P2pBandwidthLatency, OlderLayoutWithoutWritesLabel) {
  const auto out =
      parse_p2p_bandwidth_latency(fixture_text("p2p-bandwidth-latency-rtx4090-older.txt"), "o.txt");
  EXPECT_EQ(out.connectivity[0][1], 0);
  const auto f = p2p_bandwidth_latency_figures(out, "o.txt");
  EXPECT_NE(find_figure(f.bandwidth, "ce_unidir_write", "gpu1", "gpu0"), nullptr);
  EXPECT_NE(find_figure(f.latency, "memcpy_latency_p2p_write_cpu_timer", "gpu0", "gpu1"), nullptr);
}

TEST(P2pBandwidthLatency, ACutFileKeepsTheRowsBeforeTheCutAndSaysSo) {
  const auto out =
      parse_p2p_bandwidth_latency(fixture_text("bad-p2p-bandwidth-latency-cut.txt"), "cut.txt");
  ASSERT_FALSE(out.matrices.empty());
  const auto& cut = out.matrices.back();
  EXPECT_EQ(cut.title, "Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)");
  ASSERT_EQ(cut.cells.size(), 1u);
  EXPECT_DOUBLE_EQ(cut.cells[0][1], 47.06);
  ASSERT_EQ(out.notes.size(), 1u);
  EXPECT_EQ(
      out.notes[0],
      "\"Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)\": cut after 1 of 2 rows: the rest "
      "left out");
  // A row out of its place is a mangled file, not a cut one.
  std::string text = fixture_text("bad-p2p-bandwidth-latency-cut.txt");
  const auto at = text.find("     1  53.30");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 6, "     7");
  EXPECT_NE(input_error_of([&] {
              parse_p2p_bandwidth_latency(text, "cut.txt");
            }).find("row 1 is cut or mangled"),
            std::string::npos);
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

// A connectivity cell of 1e300 was cast to int (undefined behaviour); cells are 0 or 1.
TEST(P2pBandwidthLatency, AConnectivityCellOtherThanZeroOrOneIsBadInput) {
  std::string text = testing::fixture_text("p2p-bandwidth-latency-2gpu-p2p-read.txt");
  const auto at = text.find("     0\t     1     1");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 19, "     0\t 1e300     1");
  const std::string e =
      testing::input_error_of([&] { parse_p2p_bandwidth_latency(text, "p.txt"); });
  EXPECT_EQ(e.rfind("p.txt: ", 0), 0u) << e;
  EXPECT_NE(e.find("neither 0 nor 1"), std::string::npos) << e;
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

TEST(P2pBandwidthLatency, ANegativeCellIsRefusedNamingLineAndColumn) {
  std::string text = testing::fixture_text("p2p-bandwidth-latency-2gpu-p2p-read.txt");
  const auto at = text.find(" 41.37 ");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 7, "-41.37 ");
  const std::string e =
      testing::input_error_of([&] { parse_p2p_bandwidth_latency(text, "p2p.txt"); });
  EXPECT_EQ(e.find("p2p.txt: "), 0u) << e;
  EXPECT_NE(e.find("line 16, column 3 of \"Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)\": "
                   "\"-41.37\" is negative"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace p2p::import
