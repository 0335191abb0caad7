#include "report/bench_matrix.hpp"

#include <gtest/gtest.h>

namespace {

using namespace p2p::report;
namespace doc = p2p::doc;

doc::BandwidthResult rec(const std::string& c, const std::string& src, const std::string& dst,
                         std::uint64_t bytes, double gbps, const std::string& part = "",
                         const std::string& status = "ok") {
  doc::BandwidthResult r;
  r.case_name = c;
  r.src = src;
  r.dst = dst;
  r.bytes = bytes;
  r.part = part;
  r.status = nlohmann::json(status).get<decltype(r.status)>();
  if (status == "ok" || status == "failed") r.median_gbps = gbps;
  return r;
}

TEST(Matrix, RowsAreSourcesColumnsAreDestinationsInEndpointOrder) {
  std::vector<doc::BandwidthResult> rs = {
      rec("ce_unidir_write", "gpu10", "gpu2", 64, 10.2),
      rec("ce_unidir_write", "gpu2", "gpu10", 64, 2.1),
      rec("ce_unidir_write", "gpu2", "gpu0", 64, 2.0),
      rec("ce_unidir_write", "gpu0", "gpu2", 64, 0.2),
  };
  const auto ms = bandwidth_matrices(rs, false);
  ASSERT_EQ(ms.size(), 1u);
  const Matrix& m = ms[0];
  EXPECT_EQ(m.rows, (std::vector<std::string>{"gpu0", "gpu2", "gpu10"}));  // numeric, not lexical
  EXPECT_EQ(m.cols, (std::vector<std::string>{"gpu0", "gpu2", "gpu10"}));
  EXPECT_DOUBLE_EQ(*m.cells[2][1]->value, 10.2);  // gpu10 -> gpu2
  EXPECT_DOUBLE_EQ(*m.cells[1][2]->value, 2.1);   // gpu2 -> gpu10
  EXPECT_DOUBLE_EQ(*m.cells[0][1]->value, 0.2);
  EXPECT_FALSE(m.cells[0][0]);  // no self figure
  EXPECT_FALSE(m.cells[0][2]);  // not measured
}

TEST(Matrix, HostRowComesFirstAndEachSizeAndKindGetsItsOwnMatrix) {
  std::vector<doc::BandwidthResult> rs = {
      rec("h2d_d2h_ce", "host", "gpu0", 4096, 5, "dir"),
      rec("h2d_d2h_ce", "gpu0", "host", 4096, 6, "dir"),
      rec("h2d_d2h_ce", "host", "gpu0", 4096, 11, "sum"),
      rec("h2d_d2h_ce", "host", "gpu0", 8192, 7, "dir"),
      rec("h2d_d2h_ce", "gpu0", "host", 8192, 8, "dir"),
      rec("h2d_d2h_ce", "host", "gpu0", 8192, 15, "sum"),
  };
  const auto all = bandwidth_matrices(rs, false);
  ASSERT_EQ(all.size(), 4u);  // 2 sizes x (directions, total)
  EXPECT_EQ(all[0].rows, (std::vector<std::string>{"host", "gpu0"}));
  EXPECT_DOUBLE_EQ(*all[0].cells[1][0]->value, 6.0);  // gpu0 -> host at 4 KiB
  EXPECT_DOUBLE_EQ(*all[1].cells[0][0]->value, 11.0);
  const auto largest = bandwidth_matrices(rs, true);
  ASSERT_EQ(largest.size(), 2u);
  EXPECT_NE(largest[0].title.find("8KiB"), std::string::npos) << largest[0].title;
  EXPECT_DOUBLE_EQ(*largest[1].cells[0][0]->value, 15.0);
}

TEST(Matrix, WaivedFailedAndErrorCellsAreMarkedAndExplained) {
  auto waived = rec("sm_read", "gpu0", "gpu1", 64, 0, "", "waived");
  waived.detail = "P2P unavailable: cudaDeviceCanAccessPeer(gpu1, gpu0) = 0";
  auto failed = rec("sm_read", "gpu1", "gpu0", 64, 20.5, "", "failed");
  failed.detail = "verification failed: 7 bad words";
  failed.achieved_pct = 65.2;
  const auto ms = bandwidth_matrices({waived, failed}, true);
  ASSERT_EQ(ms.size(), 1u);
  const std::string text = render(ms[0]);
  EXPECT_NE(text.find("waived"), std::string::npos) << text;
  EXPECT_NE(text.find("20.50 (65%) FAILED"), std::string::npos) << text;
  EXPECT_NE(text.find("gpu0->gpu1: waived: P2P unavailable"), std::string::npos) << text;
  EXPECT_NE(text.find("gpu1->gpu0: failed: verification failed: 7 bad words"), std::string::npos)
      << text;
}

TEST(Matrix, RenderAlignsColumnsAndListsCeilings) {
  auto a = rec("h2d_ce", "host", "gpu0", 1 << 30, 55.41);
  a.ceiling_gbps = 63.015;
  a.ceiling_link = "PCIe gen5 x16";
  a.achieved_pct = 87.93;
  auto b = rec("h2d_ce", "host", "gpu1", 1 << 30, 2081.4);
  const std::string text = render(bandwidth_matrices({a, b}, true)[0]);
  EXPECT_NE(text.find("55.41 (88%)"), std::string::npos) << text;
  EXPECT_NE(text.find("2081.4"), std::string::npos) << text;
  EXPECT_NE(text.find("ceiling: PCIe gen5 x16 = 63.02 GB/s"), std::string::npos) << text;
  // Header and data lines have the same width.
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  EXPECT_EQ(lines[1].size(), lines[2].size()) << text;
}

TEST(Matrix, LatencyMatrixHasGpuRowsAndMemoryColumns) {
  doc::LatencyResult r;
  r.case_name = "latency_host";
  r.src = "gpu0";
  r.dst = "host";
  r.median_ns = 1185.5;
  const auto ms = latency_matrices({r});
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].rows, std::vector<std::string>{"gpu0"});
  EXPECT_EQ(ms[0].cols, std::vector<std::string>{"host"});
  EXPECT_NE(render(ms[0]).find("1185.5"), std::string::npos);
}

TEST(Matrix, SweepTableHasOneColumnPerSizeThenPeakAndNinetyPercentSize) {
  std::vector<doc::BandwidthResult> rs = {rec("h2d_ce", "host", "gpu0", 4096, 5),
                                          rec("h2d_ce", "host", "gpu0", 8192, 50),
                                          rec("h2d_ce", "host", "gpu0", 16384, 54)};
  const auto ts = sweep_tables(rs);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].cols, (std::vector<std::string>{"4KiB", "8KiB", "16KiB", "peak", "90% at"}));
  EXPECT_EQ(ts[0].rows, std::vector<std::string>{"host->gpu0"});
  EXPECT_DOUBLE_EQ(*ts[0].cells[0][3]->value, 54.0);
  EXPECT_EQ(ts[0].cells[0][4]->text, "8KiB");  // 50 >= 0.9 * 54
  EXPECT_TRUE(sweep_tables({rs[0]}).empty());  // one size: no sweep
}

}  // namespace
