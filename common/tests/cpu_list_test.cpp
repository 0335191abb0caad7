#include "common/cpu_list.hpp"

#include <gtest/gtest.h>

namespace {

using p2p::parse_cpu_list;

TEST(CpuList, ParsesRangesAndSinglesAndRefusesTheMalformed) {
  EXPECT_EQ(parse_cpu_list("0-3"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(parse_cpu_list("0-1,8,10-11\n"), (std::vector<int>{0, 1, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  for (const char* bad : {"", "a", "3-1", "1,,2", "1-", "-1", "0-99999999"}) {
    EXPECT_FALSE(parse_cpu_list(bad)) << bad;
  }
}

}  // namespace
