#include "common/device_list.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace {

std::string refusal(const std::string& text) {
  try {
    p2p::parse_device_list(text, "--gpus");
  } catch (const p2p::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(DeviceList, KeepsTheOrderGiven) {
  EXPECT_EQ(p2p::parse_device_list("3, 0 ,1", "--gpus"), (std::vector<int>{3, 0, 1}));
  EXPECT_EQ(p2p::parse_device_list("7", "--gpus"), (std::vector<int>{7}));
}

// CLI11's delimiter drops empty items, so `0,,1` once meant `0,1` in nccl and infer.
TEST(DeviceList, AnEmptyItemAnywhereIsRefused) {
  for (const char* text : {"", "0,,1", "0,", ",1", " , "})
    EXPECT_EQ(refusal(text), "--gpus: an empty item in '" + std::string(text) + "'");
}

TEST(DeviceList, JunkAndRepeatsAreRefusedNamingTheItem) {
  EXPECT_EQ(refusal("0,a"), "--gpus: `0,a`: `a` is not a GPU number (use e.g. 0,1)");
  EXPECT_EQ(refusal("-1"), "--gpus: `-1`: `-1` is not a GPU number (use e.g. 0,1)");
  EXPECT_EQ(refusal("99999"), "--gpus: `99999`: `99999` is not a GPU number (use e.g. 0,1)");
  EXPECT_EQ(refusal("1,2,1"), "--gpus: `1,2,1`: GPU 1 is listed twice");
}

}  // namespace
