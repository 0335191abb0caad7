// The range checks every document reader goes through (common/json_util.hpp).
#include "common/json_util.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <vector>

#include "common/error.hpp"

namespace p2p {
namespace {

using nlohmann::json;

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckedInteger, TakesOnlyIntegersThatFit) {
  EXPECT_EQ(checked_integer<int>(json(-5), "k"), -5);
  EXPECT_EQ(checked_integer<std::uint64_t>(json(18446744073709551615ull), "k"),
            18446744073709551615ull);
  EXPECT_EQ(checked_integer<int>(json(7), "k", 1, 7), 7);
  EXPECT_EQ(error_of([] { checked_integer<int>(json(8), "k", 1, 7); }),
            "`k`: expected an integer 1..7, got 8");
  EXPECT_EQ(error_of([] { checked_integer<int>(json(-1), "k", 0, 7); }),
            "`k`: expected an integer 0..7, got -1");
  EXPECT_EQ(error_of([] { checked_integer<std::uint64_t>(json(-1), "k"); }),
            "`k`: expected an integer 0..18446744073709551615, got -1");
  EXPECT_EQ(error_of([] { checked_integer<int>(json(2147483648ull), "k"); }),
            "`k`: expected an integer -2147483648..2147483647, got 2147483648");
  // Floats never convert: 1e300 to int is undefined behaviour, 2.5 is not a count.
  EXPECT_NE(error_of([] { checked_integer<int>(json(1e300), "k"); }), "");
  EXPECT_NE(error_of([] { checked_integer<int>(json(2.0), "k"); }), "");
  EXPECT_NE(error_of([] { checked_integer<int>(json("3"), "k"); }), "");
  EXPECT_EQ(error_of([] { checked_integer<int>(json(std::string(100, 'x')), "k"); }).size(),
            std::string("`k`: expected an integer -2147483648..2147483647, got ").size() + 40);
}

TEST(CheckedGet, ChecksIntegersInsideContainers) {
  EXPECT_EQ((checked_get<std::map<std::string, int>>(json{{"a", 1}}, "m")),
            (std::map<std::string, int>{{"a", 1}}));
  EXPECT_EQ(error_of([] {
              checked_get<std::map<std::string, int>>(json{{"a", 1e300}}, "m");
            }),
            "`m`: expected an integer -2147483648..2147483647, got 1e+300");
  EXPECT_NE(error_of([] {
              checked_get<std::vector<std::vector<std::uint64_t>>>(json{{1}, {-2}}, "v");
            }),
            "");
  // Types without integers are left to nlohmann: doubles read any number.
  EXPECT_EQ(checked_get<std::vector<double>>(json{1, 2.5}, "v"), (std::vector<double>{1, 2.5}));
  EXPECT_THROW(checked_get<std::string>(json(1), "s"), json::type_error);
}

TEST(OptionalAt, NullIsNoValueAndNumbersAreChecked) {
  const json j = {{"n", nullptr}, {"big", 1e300}, {"ok", 3}};
  EXPECT_FALSE(optional_at<int>(j, "n"));
  EXPECT_EQ(optional_at<int>(j, "ok"), 3);
  EXPECT_THROW(optional_at<int>(j, "big"), InputError);
  EXPECT_EQ(optional_at<double>(j, "big"), 1e300);
  EXPECT_THROW(optional_integer_at(j, "ok", 4, 9), InputError);
  EXPECT_EQ(integers_at<std::uint64_t>(json{{"s", {1, 2}}}, "s", 1, 2),
            (std::vector<std::uint64_t>{1, 2}));
  EXPECT_THROW(integers_at<std::uint64_t>(json{{"s", {1, 0}}}, "s", 1, 2), InputError);
  EXPECT_THROW(integers_at<std::uint64_t>(json{{"s", 1}}, "s", 1, 2), InputError);
}

}  // namespace
}  // namespace p2p
