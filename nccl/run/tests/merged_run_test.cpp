// The document of a run whose ranks were other processes: add_merged_ranks, which rank processes
// and MPI runs both build their results with.
#include "nccl/run/merged_run.hpp"

#include <gtest/gtest.h>

namespace p2p::nccl {
namespace {

TEST(MergedRun, CasesOfThePlanBecomeResultsAndHostPairsAreLeftToTheClusterSection) {
  RunOptions o;
  o.measure.iterations = 20;
  const std::vector<PlannedCase> plan =
      plan_cases({Collective::kAllReduce}, {DataType::kFloat32}, {1u << 20, 4u << 20}, 4, false);
  ASSERT_GE(plan.size(), 2u);
  MergedRun merged;
  MergedCase fast{0, doc::CollectiveStatus::kOk, "", {10.0, 12.0}, 11.0, 0};
  MergedCase hung{1, doc::CollectiveStatus::kHang, "no completion", {}, std::nullopt, std::nullopt};
  MergedCase host_pair{static_cast<int>(plan.size()), doc::CollectiveStatus::kOk, "", {}, 5.0, 0};
  merged.cases = {fast, hung, host_pair};
  merged.ends = {doc::RankProcessEnd{2, 4242, doc::RankEnd::kHang, std::nullopt, 9, "x", "killed"}};
  merged.warnings = {"rank 2 was killed"};
  merged.buffer_allocator = "cudaMalloc";

  doc::NcclRun run;
  add_merged_ranks(run, o, plan, 4, merged);
  ASSERT_EQ(run.results.size(), 2u);  // the host pair is not one of the plan's cases
  EXPECT_EQ(run.results[0].size_bytes, plan[0].shape.size_bytes);
  EXPECT_EQ(run.results[0].time_us, std::optional<double>(11.0));
  EXPECT_GT(run.results[0].busbw_gbps.value_or(0.0), 0.0);
  EXPECT_EQ(run.results[0].nranks, 4);
  EXPECT_EQ(run.results[1].status, doc::CollectiveStatus::kHang);
  EXPECT_EQ(run.results[1].detail, "no completion");
  EXPECT_FALSE(run.results[1].busbw_gbps.has_value());
  EXPECT_TRUE(run.environment.rank_processes);
  EXPECT_EQ(run.environment.buffer_allocator, "cudaMalloc");
  ASSERT_EQ(run.rank_process_ends.size(), 1u);
  EXPECT_EQ(run.rank_process_ends[0].pid, 4242);
  EXPECT_EQ(run.warnings, merged.warnings);
}

TEST(MergedRun, AMergedCaseStandsForItsMeasurement) {
  const MergedCase c{3, doc::CollectiveStatus::kWrong, "2 wrong", {1.0, 2.0, 3.0}, 2.0, 2};
  const Measurement m = measurement_of(c);
  EXPECT_EQ(m.status, doc::CollectiveStatus::kWrong);
  EXPECT_EQ(m.detail, "2 wrong");
  EXPECT_EQ(m.sample_us, c.sample_us);
  EXPECT_EQ(m.time_us, std::optional<double>(2.0));
  EXPECT_EQ(m.wrong_elements, std::optional<std::uint64_t>(2));
}

}  // namespace
}  // namespace p2p::nccl
