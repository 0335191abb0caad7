#include "nccl/sweep_steps.hpp"

#include <gtest/gtest.h>

#include <set>

namespace p2p::nccl {
namespace {

ProcessSlot sweep_slot(int p, const std::string& host, std::vector<int> devices) {
  ProcessSlot s;
  s.process = p;
  s.hostname = host;
  s.devices = std::move(devices);
  return s;
}

TEST(SweepSteps, PlannedCasesAreOneStepEachWithTheirNames) {
  const auto plan = plan_cases({Collective::kAllReduce}, {DataType::kFloat32}, {1024, 4096}, 2);
  const auto steps = one_case_per_step(plan, 5);
  ASSERT_EQ(steps.size(), plan.size());
  EXPECT_EQ(steps[0].cases.size(), 1u);
  EXPECT_EQ(steps[0].cases[0].name, "all_reduce/float32/out_of_place/1KiB");
  EXPECT_EQ(steps[0].cases[0].index, 5);
  EXPECT_EQ(steps.back().cases[0].index, 5 + static_cast<int>(plan.size()) - 1);
}

TEST(SweepSteps, HostPairsRunBothWaysBetweenRepresentativesInDisjointSteps) {
  // Three hosts of two GPUs, one process each: representatives are ranks 0, 2 and 4.
  const RankLayout l = lay_out_ranks(
      {sweep_slot(0, "a", {0, 1}), sweep_slot(1, "b", {0, 1}), sweep_slot(2, "c", {0, 1})});
  const auto steps = host_pair_steps(l, DataType::kFloat32, 1 << 20, 10);
  ASSERT_EQ(steps.size(), 6u);  // 3 rounds (one bye each), both directions
  std::set<std::pair<int, int>> directed;
  int index = 10;
  for (const auto& step : steps) {
    std::set<int> busy;
    for (const HostPairCase& c : step) {
      const OpSpec& op = c.step_case.planned.op;
      EXPECT_EQ(op.collective, Collective::kSendRecvPair);
      EXPECT_EQ(op.src_rank, 2 * c.src_host);
      EXPECT_EQ(op.dst_rank, 2 * c.dst_host);
      EXPECT_EQ(c.step_case.planned.shape.size_bytes, 1u << 20);
      EXPECT_EQ(c.step_case.index, index++);
      EXPECT_TRUE(busy.insert(op.src_rank).second && busy.insert(op.dst_rank).second);
      EXPECT_TRUE(directed.insert({c.src_host, c.dst_host}).second);
    }
  }
  EXPECT_EQ(directed.size(), 6u);  // every ordered pair of the three hosts
  EXPECT_EQ(steps[0][0].step_case.name, "host_pair/" + std::to_string(steps[0][0].src_host) + "->" +
                                            std::to_string(steps[0][0].dst_host) + "/1MiB");
  EXPECT_EQ(steps[0][0].round, 0);
  EXPECT_EQ(steps[1][0].round, 0);  // the same round, the other way
  EXPECT_EQ(steps[1][0].src_host, steps[0][0].dst_host);
  EXPECT_EQ(as_steps(steps).size(), 6u);
}

TEST(SweepSteps, OneHostHasNoHostPairs) {
  const RankLayout l = lay_out_ranks({sweep_slot(0, "a", {0, 1}), sweep_slot(1, "a", {2, 3})});
  EXPECT_TRUE(host_pair_steps(l, DataType::kFloat32, 1 << 20, 0).empty());
}

}  // namespace
}  // namespace p2p::nccl
