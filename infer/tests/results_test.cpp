#include "infer/results.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace p2p::infer {
namespace {

TEST(LatencySummary, NearestRankPercentilesOfAHundredCalls) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);  // unsorted on purpose
  const LatencySummary s = summarize_latency(v);
  EXPECT_EQ(s.calls, 100u);
  EXPECT_DOUBLE_EQ(s.min_us, 1);
  EXPECT_DOUBLE_EQ(s.p50_us, 50);
  EXPECT_DOUBLE_EQ(s.p90_us, 90);
  EXPECT_DOUBLE_EQ(s.p99_us, 99);
  EXPECT_DOUBLE_EQ(s.max_us, 100);
  EXPECT_DOUBLE_EQ(s.mean_us, 50.5);
  EXPECT_DOUBLE_EQ(s.spread, 99.0 / 50.0);
}

TEST(LatencySummary, OneCallIsEveryPercentileAndEmptyIsABug) {
  const LatencySummary s = summarize_latency({7.5});
  EXPECT_DOUBLE_EQ(s.p50_us, 7.5);
  EXPECT_DOUBLE_EQ(s.p99_us, 7.5);
  EXPECT_DOUBLE_EQ(s.spread, 1.0);
  EXPECT_THROW(summarize_latency({}), std::invalid_argument);
}

TEST(MeasuredMessage, StepCostAndBusBandwidthFollowFromTheMedian) {
  const Message m{Phase::kDecode, 32, 32 * 8192 * 2};
  // Median 10 us: 160 calls per token -> 1600 us; busbw = 2 (4-1)/4 x 524288 B / 10 us.
  const MessageResult r = measured_message(m, 4, 160, {9, 10, 10, 11, 30});
  EXPECT_EQ(r.message, "decode_b32");
  EXPECT_DOUBLE_EQ(r.latency->p50_us, 10);
  EXPECT_DOUBLE_EQ(*r.step_us, 1600);
  EXPECT_NEAR(*r.busbw_gbps, 1.5 * 524288 / 10e-6 / 1e9, 1e-9);
  EXPECT_DOUBLE_EQ(r.latency->max_us, 30);
}

}  // namespace
}  // namespace p2p::infer
