#include "bench/measure/collector.hpp"

#include <gtest/gtest.h>

namespace {

using namespace p2p::bench;
namespace doc = p2p::doc;

doc::BandwidthResult rec(std::vector<double> samples, std::string status = "ok",
                         std::uint64_t bad = 0) {
  doc::BandwidthResult r;
  r.case_name = "h2d_ce";
  r.src = "host";
  r.dst = "gpu0";
  r.bytes = 1 << 20;
  r.samples_gbps = std::move(samples);
  r.ceiling_gbps = 50;
  r.status = nlohmann::json(status).get<decltype(r.status)>();
  r.bad_words = bad;
  refresh_statistics(r);
  return r;
}

TEST(Collector, RepetitionsOfOneFigureMergeTheirSamples) {
  Collector c;
  c.add(rec({10, 20, 30}));
  c.add(rec({40, 50}));
  const auto all = c.bandwidth();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].samples_gbps.size(), 5u);
  EXPECT_DOUBLE_EQ(*all[0].median_gbps, 30.0);
  EXPECT_DOUBLE_EQ(*all[0].max_gbps, 50.0);
  EXPECT_DOUBLE_EQ(*all[0].achieved_pct, 60.0);
}

TEST(Collector, AFailedRepetitionFailsTheFigure) {
  Collector c;
  c.add(rec({10}));
  auto bad = rec({11}, "failed", 9);
  bad.detail = "verification failed";
  c.add(bad);
  c.add(rec({12}));
  const auto all = c.bandwidth();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_STREQ(doc::to_string(all[0].status), "failed");
  EXPECT_EQ(all[0].bad_words, 9u);
  EXPECT_EQ(all[0].detail, "verification failed");
}

TEST(Collector, DifferentSizesAndPartsStaySeparate) {
  Collector c;
  auto a = rec({1});
  auto b = rec({2});
  b.bytes = 2 << 20;
  auto s = rec({3});
  s.part = "sum";
  c.add(a);
  c.add(b);
  c.add(s);
  EXPECT_EQ(c.bandwidth().size(), 3u);
}

TEST(Collector, WarningsAreKeptOnce) {
  Collector c;
  c.warn("x");
  c.warn("y");
  c.warn("x");
  EXPECT_EQ(c.warnings(), (std::vector<std::string>{"x", "y"}));
}

}  // namespace
