#include "cluster/outliers.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "cluster/tests/fixtures.hpp"

namespace p2p::cluster {
namespace {

using testing::host_fixture;

HostRun host_with(const std::string& name, const std::string& kind, double value,
                  const std::string& status = "ok") {
  HostRun h;
  h.hostname = name;
  Figure f;
  f.kind = nlohmann::json(kind).get<doc::FleetFigureKind>();
  f.case_name = kind == "latency" ? "latency_peer" : "ce_unidir_read";
  f.src = "gpu0";
  f.dst = "gpu1";
  f.bytes = kind == "latency" ? 0 : 1 << 30;
  f.status = nlohmann::json(status).get<decltype(f.status)>();
  f.value = value;
  h.figures.push_back(f);
  return h;
}

const FigureSpread* find(const std::vector<FigureSpread>& s, const std::string& key) {
  for (const auto& x : s) {
    if (x.key == key) return &x;
  }
  return nullptr;
}

TEST(Outliers, IdenticalValuesNeverDivideByZero) {
  EXPECT_DOUBLE_EQ(modified_z(50, 50, 0, 0.02), 0.0);
  const double z = modified_z(40, 50, 0, 0.02);  // MAD floored at 1 GB/s
  EXPECT_TRUE(std::isfinite(z));
  EXPECT_NEAR(z, 0.6745 * -10 / 1.0, 1e-9);
  EXPECT_TRUE(std::isfinite(modified_z(1, 0, 0, 0.02)));  // a zero median: the absolute floor
  EXPECT_NEAR(modified_z(40, 50, 4, 0.02), 0.6745 * -10 / 4,
              1e-9);  // a MAD above the floor is used as is
}

TEST(Outliers, TheSlowHostIsFlaggedOnItsPairOnly) {
  const std::vector<HostRun> hosts = {host_fixture("node-a.jsonl"), host_fixture("node-b.jsonl"),
                                      host_fixture("node-c.jsonl"), host_fixture("node-d.jsonl")};
  const auto spreads = fleet_spreads(hosts, OutlierOptions{});
  ASSERT_EQ(spreads.size(), 5u);
  std::size_t flagged = 0;
  for (const auto& s : spreads) {
    EXPECT_TRUE(s.judged) << s.key;
    EXPECT_EQ(s.hosts, 4u) << s.key;
    flagged += s.outliers.size();
  }
  EXPECT_EQ(flagged, 1u);
  const FigureSpread* slow = find(spreads, "ce_unidir_write gpu0->gpu1 64MiB");
  ASSERT_NE(slow, nullptr);
  // a 52, b 52.52, c 51.48, d 41.808: the median of four is the mean of the middle two.
  EXPECT_NEAR(slow->median, (51.48 + 52.0) / 2, 1e-9);
  ASSERT_EQ(slow->outliers.size(), 1u);
  const Deviation& d = slow->outliers[0];
  EXPECT_EQ(d.host, "node-d");
  EXPECT_TRUE(d.worse);
  EXPECT_LT(d.z, -3.5);
  EXPECT_NEAR(d.delta_pct, (41.808 - slow->median) / slow->median * 100, 1e-9);
}

TEST(Outliers, LatencyIsWorseAbove) {
  const auto spreads =
      fleet_spreads({host_with("a", "latency", 1800), host_with("b", "latency", 1810),
                     host_with("c", "latency", 1790), host_with("d", "latency", 2600)},
                    OutlierOptions{});
  ASSERT_EQ(spreads.size(), 1u);
  ASSERT_EQ(spreads[0].outliers.size(), 1u);
  EXPECT_EQ(spreads[0].outliers[0].host, "d");
  EXPECT_TRUE(spreads[0].outliers[0].worse);
  EXPECT_GT(spreads[0].outliers[0].z, 3.5);
}

TEST(Outliers, AFastHostIsAnOutlierButNotWorse) {
  const auto spreads =
      fleet_spreads({host_with("a", "bandwidth", 50), host_with("b", "bandwidth", 50),
                     host_with("c", "bandwidth", 50), host_with("d", "bandwidth", 70)},
                    OutlierOptions{});
  ASSERT_EQ(spreads[0].outliers.size(), 1u);
  EXPECT_FALSE(spreads[0].outliers[0].worse);
}

TEST(Outliers, SmallDifferencesAmongIdenticalHostsAreNotFlagged) {
  // Three identical hosts (MAD 0) and one 5% off: below the floor's ~10%.
  const auto spreads =
      fleet_spreads({host_with("a", "bandwidth", 50), host_with("b", "bandwidth", 50),
                     host_with("c", "bandwidth", 50), host_with("d", "bandwidth", 47.5)},
                    OutlierOptions{});
  EXPECT_TRUE(spreads[0].outliers.empty());
  EXPECT_DOUBLE_EQ(spreads[0].mad, 0.0);
}

TEST(Outliers, TooFewHostsOrFailedFiguresAreNotJudged) {
  const auto two = fleet_spreads({host_with("a", "bandwidth", 50), host_with("b", "bandwidth", 10)},
                                 OutlierOptions{});
  ASSERT_EQ(two.size(), 1u);
  EXPECT_FALSE(two[0].judged);
  EXPECT_TRUE(two[0].outliers.empty());
  const auto failed =
      fleet_spreads({host_with("a", "bandwidth", 50), host_with("b", "bandwidth", 50),
                     host_with("c", "bandwidth", 50), host_with("d", "bandwidth", 1, "failed")},
                    OutlierOptions{});
  EXPECT_EQ(failed[0].hosts, 3u);
  EXPECT_TRUE(failed[0].outliers.empty());
}

}  // namespace
}  // namespace p2p::cluster
