#include "nccl/run/rank_process.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::nccl {
namespace {

TEST(KillHook, OnlyTheNamedRankReadsACount) {
  EXPECT_EQ(kill_after_cases("3:5", 3), std::optional<int>(5));
  EXPECT_EQ(kill_after_cases("3:0", 3), std::optional<int>(0));
  EXPECT_EQ(kill_after_cases("3:5", 2), std::nullopt);
  EXPECT_EQ(kill_after_cases(nullptr, 0), std::nullopt);
  EXPECT_EQ(kill_after_cases("", 0), std::nullopt);
  EXPECT_EQ(kill_after_cases("3", 3), std::nullopt);
  EXPECT_EQ(kill_after_cases("3:x", 3), std::nullopt);
  EXPECT_EQ(kill_after_cases("3x:1", 3), std::nullopt);
  EXPECT_EQ(kill_after_cases("3:-1", 3), std::nullopt);
}

TEST(RankJob, RoundTripsWithTheRunOptionsAndTheDirectory) {
  RankJob job;
  job.run.devices = {0};
  job.run.nranks = 8;
  job.run.rank_processes = true;
  job.run.collectives = {Collective::kSendRecvPair};
  job.work_dir = "/tmp/p2pcheck-nccl-ranks-abc";
  const RankJob back = nlohmann::json::parse(nlohmann::json(job).dump()).get<RankJob>();
  EXPECT_EQ(back.work_dir, job.work_dir);
  EXPECT_EQ(back.run.nranks, 8);
  EXPECT_EQ(back.run.devices, std::vector<int>{0});
  EXPECT_EQ(back.run.collectives, job.run.collectives);
  EXPECT_EQ(rank_results_path(job.work_dir, 3), "/tmp/p2pcheck-nccl-ranks-abc/rank3.jsonl");
  EXPECT_EQ(rank_nccl_log_path(job.work_dir, 3), "/tmp/p2pcheck-nccl-ranks-abc/rank3.nccl.log");
  nlohmann::json other = job;
  other["schema"] = "p2pcheck.nccl_run_options";
  EXPECT_THROW(other.get<RankJob>(), InputError);
}

}  // namespace
}  // namespace p2p::nccl
