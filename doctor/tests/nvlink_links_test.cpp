#include "doctor/nvlink_links.hpp"

#include <gtest/gtest.h>

namespace p2p::doctor {
namespace {

using Matrix = std::vector<std::vector<int>>;

TEST(NvlinkCounts, DirectBridgesCountEachLinkOncePerPair) {
  // Two pairs of GPUs joined by 4-link bridges, as NVML reports them from both ends.
  const std::vector<std::string> gpus = {"0000:01:00.0", "0000:02:00.0", "0000:41:00.0",
                                         "0000:42:00.0"};
  const std::vector<std::vector<std::string>> remotes = {
      std::vector<std::string>(4, "00000000:02:00.0"),
      std::vector<std::string>(4, "00000000:01:00.0"), std::vector<std::string>(4, "0000:42:00.0"),
      std::vector<std::string>(4, "0000:41:00.0")};
  const Matrix expected = {{0, 4, 0, 0}, {4, 0, 0, 0}, {0, 0, 0, 4}, {0, 0, 4, 0}};
  EXPECT_EQ(nvlink_counts_from_remotes(gpus, remotes), expected);
}

TEST(NvlinkCounts, SwitchPortsJoinEveryPairOfSwitchedGpus) {
  // HGX: every link of every GPU ends on an NVSwitch (not a listed GPU): NV18 between all pairs.
  const std::vector<std::string> gpus = {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0"};
  const std::vector<std::vector<std::string>> remotes(3,
                                                      std::vector<std::string>(18, "0000:05:00.0"));
  const Matrix expected = {{0, 18, 18}, {18, 0, 18}, {18, 18, 0}};
  EXPECT_EQ(nvlink_counts_from_remotes(gpus, remotes), expected);
}

TEST(NvlinkCounts, OneSidedReportAndMissingGpusStillGiveASymmetricMatrix) {
  // Only GPU0 could be queried (GPU1's handle failed): its two links to GPU1 still count both ways;
  // a GPU with no NVLink at all (PCIe-only) has zeros.
  const std::vector<std::string> gpus = {"0000:01:00.0", "0000:02:00.0", "0000:03:00.0"};
  const std::vector<std::vector<std::string>> remotes = {{"0000:02:00.0", "0000:02:00.0"}, {}, {}};
  const Matrix expected = {{0, 2, 0}, {2, 0, 0}, {0, 0, 0}};
  EXPECT_EQ(nvlink_counts_from_remotes(gpus, remotes), expected);
}

TEST(NvlinkCounts, BusIdsCompareIgnoringCaseAndDomainWidth) {
  const std::vector<std::string> gpus = {"0000:c1:00.0", "0000:c2:00.0"};
  const std::vector<std::vector<std::string>> remotes = {{"00000000:C2:00.0"}, {"0000:C1:00.0"}};
  const Matrix expected = {{0, 1}, {1, 0}};
  EXPECT_EQ(nvlink_counts_from_remotes(gpus, remotes), expected);
}

}  // namespace
}  // namespace p2p::doctor
