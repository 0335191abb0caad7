#include "bench/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

using p2p::bench::summarize;

TEST(Stats, OddCountTakesTheMiddleSample) {
  const auto s = summarize({50.0, 55.0, 54.0, 10.0, 53.0});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 53.0);
  EXPECT_DOUBLE_EQ(s.min, 10.0);
  EXPECT_DOUBLE_EQ(s.max, 55.0);
  EXPECT_DOUBLE_EQ(s.spread, 45.0 / 53.0);
}

TEST(Stats, EvenCountAveragesTheMiddlePair) {
  const auto s = summarize({4.0, 1.0, 3.0, 2.0});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.spread, 3.0 / 2.5);
}

TEST(Stats, OneSampleHasNoSpread) {
  const auto s = summarize({2081.0});
  EXPECT_DOUBLE_EQ(s.median, 2081.0);
  EXPECT_DOUBLE_EQ(s.spread, 0.0);
}

TEST(Stats, RejectsWhatCannotBeSummarised) {
  EXPECT_THROW(summarize({}), std::invalid_argument);
  EXPECT_THROW(summarize({1.0, -1.0}), std::invalid_argument);
  EXPECT_THROW(summarize({1.0, std::numeric_limits<double>::quiet_NaN()}), std::invalid_argument);
  EXPECT_THROW(summarize({0.0, 0.0, 1.0}), std::invalid_argument);  // spread relative to 0
  EXPECT_DOUBLE_EQ(summarize({0.0, 0.0}).spread, 0.0);
}

}  // namespace
