#include "nccl/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/google_benchmark.hpp"
#include "nccl/benchmark_registration.hpp"
#include "nccl/sweep.hpp"

namespace p2p::nccl {
namespace {

TEST(Plan, OneRankFullDefaultSweep) {
  const auto sizes = sweep_sizes(SweepSpec{});
  const auto plan = plan_cases(all_collectives(), {DataType::kFloat32}, sizes, 1);
  const auto count = [&](Collective c, bool in_place) {
    return std::count_if(plan.begin(), plan.end(), [&](const PlannedCase& p) {
      return p.op.collective == c && p.in_place == in_place;
    });
  };
  EXPECT_EQ(count(Collective::kAllReduce, false), 28);
  EXPECT_EQ(count(Collective::kAllReduce, true), 28);
  // 8 B of float is below one 16-byte slice: dropped, as nccl-tests prints count 0 there.
  EXPECT_EQ(count(Collective::kAllGather, false), 27);
  EXPECT_EQ(count(Collective::kAllToAll, false), 27);
  EXPECT_EQ(count(Collective::kAllToAll, true), 0);
  EXPECT_EQ(count(Collective::kSendRecvRing, true), 0);
  EXPECT_EQ(count(Collective::kSendRecvPair, false), 1);  // the 1x1 diagonal, at 1 GiB only
  EXPECT_EQ(buffer_bytes(plan), 1ull << 30);
}

TEST(Plan, PairsCoverEveryOrderedPairIncludingTheDiagonal) {
  const auto plan =
      plan_cases({Collective::kSendRecvPair}, {DataType::kBfloat16}, {1024, 4096}, 3, true);
  ASSERT_EQ(plan.size(), 3u * 3u * 2u);
  for (int s = 0; s < 3; ++s) {
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(std::count_if(
                    plan.begin(), plan.end(),
                    [&](const PlannedCase& p) { return p.op.src_rank == s && p.op.dst_rank == d; }),
                2);
    }
  }
  EXPECT_EQ(plan.front().op.count, 512u);  // 1 KiB of bfloat16
}

// The pair matrix is n x n cases a size: by default it runs at the largest size only, while the
// collectives keep their whole sweep.
TEST(Plan, PairsRunAtTheLargestSizeUnlessAskedForEverySize) {
  const std::vector<std::uint64_t> sizes{1024, 1ull << 20, 4096};
  const auto plan = plan_cases({Collective::kAllReduce, Collective::kSendRecvPair},
                               {DataType::kFloat32}, sizes, 8);
  const auto pairs = std::count_if(plan.begin(), plan.end(), [](const PlannedCase& p) {
    return p.op.collective == Collective::kSendRecvPair;
  });
  EXPECT_EQ(pairs, 64);
  for (const auto& p : plan) {
    if (p.op.collective == Collective::kSendRecvPair) EXPECT_EQ(p.shape.size_bytes, 1ull << 20);
  }
  EXPECT_EQ(plan.size() - static_cast<std::size_t>(pairs),
            3u * 2u);  // all_reduce: 3 sizes, in and out of place
  const auto every = plan_cases({Collective::kSendRecvPair}, {DataType::kFloat32}, sizes, 8, true);
  EXPECT_EQ(every.size(), 64u * 3u);
}

TEST(Plan, OrderIsCollectiveThenTypeThenSizeThenPlacement) {
  const auto plan = plan_cases({Collective::kAllReduce, Collective::kBroadcast},
                               {DataType::kFloat32, DataType::kFloat16}, {64, 128}, 2);
  ASSERT_EQ(plan.size(), 16u);
  EXPECT_EQ(plan[0].op.collective, Collective::kAllReduce);
  EXPECT_EQ(plan[0].op.dtype, DataType::kFloat32);
  EXPECT_EQ(plan[0].shape.size_bytes, 64u);
  EXPECT_FALSE(plan[0].in_place);
  EXPECT_TRUE(plan[1].in_place);
  EXPECT_EQ(plan[2].shape.size_bytes, 128u);
  EXPECT_EQ(plan[4].op.dtype, DataType::kFloat16);
  EXPECT_EQ(plan[8].op.collective, Collective::kBroadcast);
}

// Benchmark names are what --benchmark_filter selects and what Google Benchmark's JSON keys
// on: one per planned case, unique over a whole sweep.
TEST(Plan, EveryCaseHasItsOwnBenchmarkName) {
  const auto plan = plan_cases(all_collectives(), {DataType::kFloat32, DataType::kBfloat16},
                               {8, 1024, 64ull << 20}, 2, true);
  std::vector<std::string> names;
  for (const auto& c : plan) names.push_back(benchmark_name(c));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end())
      << "duplicate benchmark names";
  EXPECT_NE(std::find(names.begin(), names.end(), "all_reduce/float32/in_place/64MiB"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "all_reduce/bfloat16/out_of_place/1KiB"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "sendrecv_pairs/float32/out_of_place/1->0/8B"),
            names.end());
  const p2p::harness::NameFilter only_pairs_from_1("^sendrecv_pairs/float32/.*/1->");
  const auto selected = std::count_if(names.begin(), names.end(), [&](const std::string& n) {
    return only_pairs_from_1.matches(n);
  });
  EXPECT_EQ(selected, 2 * 3);  // 1->0 and 1->1, three sizes
}

TEST(Plan, WarmUpTakesEachOperationAtItsLargestSize) {
  const auto plan =
      plan_cases({Collective::kAllReduce, Collective::kSendRecvPair},
                 {DataType::kFloat32, DataType::kFloat16}, {1024, 64ull << 20, 1ull << 30}, 2);
  const auto warm = largest_per_operation(plan);
  ASSERT_EQ(warm.size(), 4u);  // 2 operations x 2 types
  for (const auto& c : warm)
    EXPECT_EQ(c.shape.size_bytes, 1ull << 30) << to_string(c.op.collective);
  EXPECT_EQ(warm[0].op.collective, Collective::kAllReduce);
  EXPECT_EQ(warm[0].op.dtype, DataType::kFloat32);
  EXPECT_EQ(warm[3].op.collective, Collective::kSendRecvPair);
  EXPECT_EQ(warm[3].op.dtype, DataType::kFloat16);
  EXPECT_TRUE(largest_per_operation({}).empty());
}

TEST(Plan, ParticipantsOfAPairAreItsEnds) {
  OpSpec op;
  op.collective = Collective::kSendRecvPair;
  op.src_rank = 2;
  op.dst_rank = 0;
  EXPECT_EQ(participants(op, 4), (std::vector<int>{2, 0}));
  op.dst_rank = 2;
  EXPECT_EQ(participants(op, 4), (std::vector<int>{2}));
  op.collective = Collective::kAllReduce;
  EXPECT_EQ(participants(op, 3), (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace p2p::nccl
