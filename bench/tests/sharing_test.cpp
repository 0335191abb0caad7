// The pure part of "was the GPU ours alone": what NVML and the lock files saw -> notes, the
// document's record, the --exclusive refusal and the warning.
#include "bench/sharing.hpp"

#include <gtest/gtest.h>

namespace {

using namespace p2p::bench;
namespace doc = p2p::doc;

GpuActivity gpu(const std::string& bus, std::vector<GpuProcess> processes,
                std::optional<int> util = 0, std::vector<long> runs = {}) {
  GpuActivity g;
  g.pci_bus_id = bus;
  g.nvml = true;
  g.processes = std::move(processes);
  g.utilization_percent = util;
  g.p2pcheck_runs = std::move(runs);
  return g;
}

TEST(Sharing, OurOwnProcessesAreNotSharing) {
  const auto look = look_for_sharing(
      {gpu("0000:41:00.0", {{100, "compute", "p2pcheck", 1u << 30}})}, {100}, "after");
  EXPECT_FALSE(look.busy());
  EXPECT_TRUE(look.pids.empty());
}

TEST(Sharing, AnotherComputeProcessIsNamedWithItsMemory) {
  const auto look = look_for_sharing(
      {gpu("0000:41:00.0",
           {{100, "compute", "p2pcheck", {}}, {4242, "compute", "python3", 1u << 30}})},
      {100}, "before");
  ASSERT_EQ(look.notes.size(), 1u);
  EXPECT_EQ(look.notes[0], "before: 0000:41:00.0: pid 4242 (python3, compute, 1GiB)");
  EXPECT_EQ(look.pids, std::set<long>{4242});
}

TEST(Sharing, AnotherRunsLockIsSharingEvenWithoutNvml) {
  GpuActivity g;
  g.pci_bus_id = "0000:61:00.0";
  g.p2pcheck_runs = {7, 9};
  const auto look = look_for_sharing({g}, {9}, "after");
  ASSERT_EQ(look.notes.size(), 1u);
  EXPECT_EQ(look.notes[0], "after: 0000:61:00.0: another p2pcheck run, pid 7, holds its lock");
}

TEST(Sharing, UtilisationCountsBeforeOnlyAndOnlyWithNoOtherProcessToName) {
  const std::vector<GpuActivity> hot{gpu("0000:41:00.0", {}, 87)};
  const auto before = look_for_sharing(hot, {}, "before");
  ASSERT_EQ(before.notes.size(), 1u);
  EXPECT_NE(before.notes[0].find("87% utilised"), std::string::npos) << before.notes[0];
  EXPECT_FALSE(look_for_sharing(hot, {}, "after").busy()) << "after measuring the load is our own";
  EXPECT_FALSE(
      look_for_sharing({gpu("0000:41:00.0", {}, kBusyUtilizationPercent - 1)}, {}, "before")
          .busy());
  EXPECT_FALSE(look_for_sharing({gpu("0000:41:00.0", {}, std::nullopt)}, {}, "before").busy());
}

TEST(Sharing, TheRecordCollectsBothLooks) {
  const auto before = look_for_sharing({gpu("0000:41:00.0", {})}, {1}, "before");
  const auto after =
      look_for_sharing({gpu("0000:41:00.0", {{5, "graphics", "Xorg", {}}}, 0, {6})}, {1}, "after");
  const doc::SharingRecord r = sharing_record({before, after}, true, true);
  EXPECT_TRUE(r.shared);
  EXPECT_EQ(r.checked, (std::vector<std::string>{"nvml", "locks"}));
  EXPECT_EQ(r.other_pids, (std::vector<long>{5, 6}));
  EXPECT_EQ(r.notes.size(), 2u);
  EXPECT_NE(r.notes[0].find("pid 5 (Xorg, graphics)"), std::string::npos) << r.notes[0];

  const doc::SharingRecord alone = sharing_record({before}, false, true);
  EXPECT_FALSE(alone.shared);
  EXPECT_EQ(alone.checked, std::vector<std::string>{"locks"});
  EXPECT_TRUE(alone.notes.empty());
}

TEST(Sharing, ExclusiveRefusesWithOneLineNamingTheGpuAndTheProcess) {
  const auto look = look_for_sharing(
      {gpu("0000:41:00.0", {{4242, "compute", "python3", {}}}), gpu("0000:61:00.0", {}, 0, {77})},
      {}, "before");
  EXPECT_EQ(exclusive_refusal(look),
            "--exclusive: GPU 0000:41:00.0 is in use: pid 4242 (python3, compute) (and 1 more)");
  EXPECT_EQ(exclusive_refusal(look_for_sharing({gpu("0000:41:00.0", {})}, {}, "before")), "");
}

TEST(Sharing, TheRecordRoundTripsThroughJson) {
  doc::SharingRecord r;
  r.shared = true;
  r.checked = {"locks"};
  r.notes = {"after: 0000:41:00.0: another p2pcheck run, pid 7, holds its lock"};
  r.other_pids = {7};
  const doc::SharingRecord back = nlohmann::json(r).get<doc::SharingRecord>();
  EXPECT_EQ(back.shared, r.shared);
  EXPECT_EQ(back.checked, r.checked);
  EXPECT_EQ(back.notes, r.notes);
  EXPECT_EQ(back.other_pids, r.other_pids);
}

}  // namespace
