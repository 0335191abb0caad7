#include "nccl/threshold.hpp"

#include <gtest/gtest.h>

namespace p2p::nccl {
namespace {

// A typical sweep: latency-bound ramp, then a plateau around 180 GB/s.
std::vector<BusbwPoint> ramp_then_plateau() {
  return {{1 << 10, 0.5},   {1 << 14, 8.0},   {1 << 18, 60.0},  {1 << 22, 150.0},
          {1 << 24, 175.0}, {1 << 26, 181.0}, {1 << 28, 183.0}, {1 << 30, 182.0}};
}

TEST(Saturation, FirstSizeWithinTenPercentOfThePeak) {
  EXPECT_EQ(saturation_size(ramp_then_plateau()), 1u << 24);  // 175 >= 0.9 * 183
  EXPECT_FALSE(saturation_size({}).has_value());
  EXPECT_FALSE(saturation_size({{8, 0.0}}).has_value());
}

TEST(MinBusbw, JudgedOnThePlateauNotOnTheWholeSweep) {
  const auto points = ramp_then_plateau();
  // The mean over every size (nccl-tests' "Avg bus bandwidth") is ~117 GB/s: a 170 GB/s floor
  // would fail there although every saturated size is above it.
  const doc::BusbwVerdict v = judge_series(points, 170.0, 1.75, std::nullopt);
  EXPECT_STREQ(doc::to_string(v.status), "pass");
  EXPECT_EQ(v.saturation_bytes, 1u << 24);
  EXPECT_EQ(v.judged_sizes, 4);
  EXPECT_DOUBLE_EQ(*v.median_busbw_gbps, 181.5);
  EXPECT_DOUBLE_EQ(*v.lowest_busbw_gbps, 175.0);
  EXPECT_STREQ(doc::to_string(judge_series(points, 190.0, 1.75, std::nullopt).status), "fail");
}

TEST(MinBusbw, AFixedSaturationSizeOverridesTheComputedOne) {
  const doc::BusbwVerdict v = judge_series(ramp_then_plateau(), 170.0, 1.0, 1u << 22);
  EXPECT_EQ(v.judged_sizes, 5);
  EXPECT_STREQ(doc::to_string(v.status), "pass");  // median of 150,175,181,182,183 = 181
  const doc::BusbwVerdict none = judge_series(ramp_then_plateau(), 1.0, 1.0, 1ull << 31);
  EXPECT_STREQ(doc::to_string(none.status), "not_judged");
}

TEST(MinBusbw, OneRankAndEmptySeriesAreNotJudged) {
  EXPECT_STREQ(doc::to_string(judge_series(ramp_then_plateau(), 1.0, 0.0, std::nullopt).status),
               "not_judged");
  EXPECT_STREQ(doc::to_string(judge_series({}, 1.0, 1.0, std::nullopt).status), "not_judged");
}

TEST(MinBusbw, ADeadLinkFailsInsteadOfEscapingJudgement) {
  const doc::BusbwVerdict v = judge_series({{1024, 0.0}, {4096, 0.0}}, 10.0, 1.0, std::nullopt);
  EXPECT_STREQ(doc::to_string(v.status), "fail");
  EXPECT_EQ(v.judged_sizes, 2);
}

TEST(MinBusbw, OneVerdictPerSeriesFromOkResultsOnly) {
  std::vector<doc::CollectiveResult> results;
  const auto add = [&](const char* c, bool in_place, std::uint64_t bytes, double busbw,
                       const char* status) {
    doc::CollectiveResult r;
    r.collective = c;
    r.dtype = "float32";
    r.in_place = in_place;
    r.nranks = 2;
    r.size_bytes = bytes;
    r.status = nlohmann::json(status).get<decltype(r.status)>();
    if (std::string(status) != "hang") r.busbw_gbps = busbw;
    results.push_back(r);
  };
  add("all_reduce", false, 1 << 20, 50.0, "ok");
  add("all_reduce", false, 1 << 24, 100.0, "ok");
  add("all_reduce", true, 1 << 20, 50.0, "ok");
  add("all_reduce", true, 1 << 24, 0.0, "hang");
  add("broadcast", false, 1 << 24, 100.0, "wrong");  // wrong data does not count as bandwidth
  const auto verdicts = judge_min_busbw(results, 90.0, std::nullopt);
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0].collective, "all_reduce");
  EXPECT_FALSE(verdicts[0].in_place);
  EXPECT_STREQ(doc::to_string(verdicts[0].status), "pass");
  EXPECT_TRUE(verdicts[1].in_place);
  EXPECT_STREQ(doc::to_string(verdicts[1].status),
               "fail");  // only the 1 MiB point at 50 GB/s is left
  EXPECT_EQ(verdicts[2].collective, "broadcast");
  EXPECT_STREQ(doc::to_string(verdicts[2].status), "not_judged");
  EXPECT_TRUE(any_failed(verdicts));
}

TEST(BusbwVerdictJson, RoundTripsWithNulls) {
  doc::BusbwVerdict v;
  v.collective = "sendrecv_pairs";
  v.dtype = "float16";
  v.src_rank = 0;
  v.dst_rank = 1;
  v.min_busbw_gbps = 40;
  const nlohmann::json j = v;
  EXPECT_TRUE(j.at("median_busbw_gbps").is_null());
  const doc::BusbwVerdict back = j.get<doc::BusbwVerdict>();
  EXPECT_EQ(back.dst_rank, 1);
  EXPECT_STREQ(doc::to_string(back.status), "not_judged");
  EXPECT_FALSE(back.saturation_bytes.has_value());
}

}  // namespace
}  // namespace p2p::nccl
