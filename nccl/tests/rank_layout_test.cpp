#include "nccl/rank_layout.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::nccl {
namespace {

ProcessSlot process(int p, const std::string& host, std::vector<int> devices,
                    const std::string& host_id = "") {
  ProcessSlot s;
  s.process = p;
  s.hostname = host;
  s.host_id = host_id;
  s.devices = std::move(devices);
  return s;
}

TEST(RankLayout, GlobalRanksAreTheGpuCountsOfTheProcessesBefore) {
  // Two hosts: node-a runs one process with 4 GPUs, node-b two processes with 2 each.
  const RankLayout l = lay_out_ranks({process(0, "node-a", {0, 1, 2, 3}),
                                      process(1, "node-b", {0, 1}), process(2, "node-b", {2, 3})});
  EXPECT_EQ(l.nranks, 8);
  EXPECT_EQ(l.processes[0].first_rank, 0);
  EXPECT_EQ(l.processes[1].first_rank, 4);
  EXPECT_EQ(l.processes[2].first_rank, 6);
  EXPECT_EQ(l.rank_process, (std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(l.hosts, (std::vector<std::string>{"node-a", "node-b"}));
  EXPECT_EQ(l.rank_host, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(ranks_of_process(l, 2), (std::vector<int>{6, 7}));
  EXPECT_EQ(processes_of(l, {7, 0, 6, 3}), (std::vector<int>{0, 2}));
  EXPECT_EQ(host_representatives(l), (std::vector<int>{0, 4}));
}

TEST(RankLayout, NcclHostIdMakesAHostOfItsOwn) {
  // Four processes on one machine and one GPU, each told it is a host of its own.
  const RankLayout l = lay_out_ranks({process(0, "vm", {0}, "h0"), process(1, "vm", {0}, "h1"),
                                      process(2, "vm", {0}, "h2"), process(3, "vm", {0}, "h3")});
  EXPECT_EQ(l.nranks, 4);
  EXPECT_EQ(l.hosts, (std::vector<std::string>{"h0", "h1", "h2", "h3"}));
  EXPECT_EQ(l.rank_host, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(host_representatives(l), (std::vector<int>{0, 1, 2, 3}));
}

TEST(RankLayout, HostsAreNumberedByTheirFirstRankEvenWhenInterleaved) {
  const RankLayout l =
      lay_out_ranks({process(0, "b", {0}), process(1, "a", {0}), process(2, "b", {1})});
  EXPECT_EQ(l.hosts, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(l.rank_host, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(host_representatives(l), (std::vector<int>{0, 1}));
}

TEST(RankLayout, AProcessWithoutGpuOrOutOfOrderIsRefused) {
  EXPECT_THROW(lay_out_ranks({process(0, "a", {0}), process(1, "b", {})}), InputError);
  EXPECT_THROW(lay_out_ranks({process(1, "a", {0})}), InputError);
}

TEST(DeviceForLocalRank, LocalRankPicksTheGpuOrItsEntryOfGpus) {
  EXPECT_EQ(device_for_local_rank(3, {}, 8), 3);
  EXPECT_EQ(device_for_local_rank(1, {4, 6}, 8), 6);
  EXPECT_THROW(device_for_local_rank(std::nullopt, {}, 8), InputError);
  EXPECT_THROW(device_for_local_rank(8, {}, 8), InputError);  // more tasks than GPUs
  EXPECT_THROW(device_for_local_rank(2, {4, 6}, 8), InputError);
  EXPECT_THROW(device_for_local_rank(1, {4, 9}, 8), InputError);  // listed, but not there
  EXPECT_EQ(device_for_local_rank(3, {0, 0, 0, 0}, 1), 0);        // tasks may share a GPU
}

}  // namespace
}  // namespace p2p::nccl
