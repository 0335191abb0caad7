#include "bench/measure/selection.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace {

using namespace p2p::bench;

TEST(Selection, ParsesGpuLists) {
  EXPECT_EQ(parse_gpu_list("0,1"), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_gpu_list(" 3 , 1"), (std::vector<int>{3, 1}));
  for (const char* bad : {"", "a", "0,", "-1", "1,1", "0;1", "99999"}) {
    EXPECT_THROW(parse_gpu_list(bad), p2p::InputError) << bad;
  }
}

TEST(Selection, ChecksOrdinalsExist) {
  EXPECT_EQ(select_gpus({}, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(select_gpus({2, 0}, 3), (std::vector<int>{0, 2}));
  try {
    select_gpus({0, 1}, 1);
    FAIL();
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--gpus: GPU 1 does not exist (1 CUDA device visible)");
  }
}

}  // namespace
