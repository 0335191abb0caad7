#include "document/sweep_summary.hpp"

#include <gtest/gtest.h>

namespace {

using namespace p2p::doc;
namespace doc = p2p::doc;

TEST(Sweep, SmallestSizeReachingNinetyPercentOfPeak) {
  const std::vector<SweepPoint> pts = {
      {4096, 2}, {65536, 30}, {1 << 20, 50}, {1 << 24, 55}, {1 << 30, 54}};
  EXPECT_EQ(smallest_size_reaching(pts, 0.9), 1u << 20);  // 50 >= 49.5
  EXPECT_EQ(smallest_size_reaching(pts, 0.95), 1u << 24);
  EXPECT_EQ(smallest_size_reaching(pts, 0.0), 4096u);
  EXPECT_FALSE(smallest_size_reaching({}, 0.9));
}

TEST(Sweep, OrderOfPointsDoesNotMatter) {
  const std::vector<SweepPoint> pts = {{1 << 30, 54}, {4096, 2}, {1 << 20, 50}, {1 << 24, 55}};
  EXPECT_EQ(smallest_size_reaching(pts, 0.9), 1u << 20);
}

TEST(Sweep, SummariesPerRouteAndPartSkippingUnmeasured) {
  auto r = [](std::string src, std::string part, std::uint64_t b, std::optional<double> g,
              std::string status = "ok") {
    doc::BandwidthResult x;
    x.case_name = "ce_bidir";
    x.src = std::move(src);
    x.dst = "gpu1";
    x.part = std::move(part);
    x.bytes = b;
    x.median_gbps = g;
    x.status = nlohmann::json(status).get<decltype(x.status)>();
    return x;
  };
  const std::vector<doc::BandwidthResult> rs = {
      r("gpu0", "dir", 4096, 1.0),  r("gpu0", "sum", 4096, 2.0),
      r("gpu0", "dir", 8192, 10.0), r("gpu0", "sum", 8192, 19.0),
      r("gpu0", "dir", 16384, 9.5), r("gpu0", "sum", 16384, 90.0, "failed")};
  const auto s = summarize_sweeps(rs);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].part, "dir");
  EXPECT_DOUBLE_EQ(s[0].peak_gbps, 10.0);
  EXPECT_EQ(s[0].peak_bytes, 8192u);
  EXPECT_EQ(s[0].bytes_at_90pct, 8192u);
  EXPECT_EQ(s[1].part, "sum");
  EXPECT_DOUBLE_EQ(s[1].peak_gbps, 19.0);  // the failed figure does not count
}

}  // namespace
