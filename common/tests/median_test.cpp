#include "common/median.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace {

using p2p::median;

TEST(Median, OddCountTakesTheMiddleEvenCountTheMeanOfTheTwo) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7.0);
  EXPECT_DOUBLE_EQ(median({100, 1, 1, 1, 1}), 1.0);  // one slow sample does not move it
  EXPECT_DOUBLE_EQ(median({-2, 2}), 0.0);            // deviations and differences may be negative
}

TEST(Median, NoValuesOrNonFiniteOnesAreRefused) {
  EXPECT_THROW(median({}), std::invalid_argument);
  EXPECT_THROW(median({1.0, std::numeric_limits<double>::quiet_NaN()}), std::invalid_argument);
  EXPECT_THROW(median({std::numeric_limits<double>::infinity()}), std::invalid_argument);
}

}  // namespace
