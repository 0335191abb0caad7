#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "infer/ipc_merge.hpp"
#include "infer/rank_job.hpp"

namespace p2p::infer {
namespace {

using doc::IpcStatus;

IpcLine line(const std::string& side, int w, int o, IpcStatus status = IpcStatus::kOk,
             const std::string& detail = "") {
  return IpcLine{side, w, o, status, detail};
}

TEST(IpcMerge, EveryOrderedPairWithTheReasonWhereItFailed) {
  // Ranks on GPUs 0, 1, 4. 0->1 fine; 1->0 could not map; 0->4 read back wrong; 4->x never ran.
  std::string text =
      to_line(line("write", 0, 1)) + to_line(line("read", 0, 1)) +
      to_line(line("write", 1, 0, IpcStatus::kFail,
                   "cudaIpcOpenMemHandle: peer access is not supported")) +
      to_line(line("read", 1, 0, IpcStatus::kFail, "expected 0x11 at byte 0, read 0x00")) +
      to_line(line("write", 0, 2)) +
      to_line(line("read", 0, 2, IpcStatus::kFail, "expected 0x03, read 0x00")) +
      to_line(line("write", 1, 2)) + R"({"kind": "case", "rank": 0})" + "\n" +
      R"({"kind": "ipc", "sid)";
  const auto pairs = merge_ipc({0, 1, 4}, parse_ipc_lines(text));
  ASSERT_EQ(pairs.size(), 6u);
  EXPECT_EQ(pairs[0].writer_rank, 0);
  EXPECT_EQ(pairs[0].owner_rank, 1);
  EXPECT_EQ(pairs[0].status, IpcStatus::kOk);
  EXPECT_EQ(pairs[1].owner_gpu, 4);
  EXPECT_EQ(pairs[1].status, IpcStatus::kFail);
  EXPECT_EQ(pairs[1].detail, "rank 2 read back: expected 0x03, read 0x00");
  EXPECT_EQ(pairs[2].status,
            IpcStatus::kFail);  // 1 -> 0: the write failure wins over the owner's zeros
  EXPECT_EQ(pairs[2].detail,
            "rank 1 could not write: cudaIpcOpenMemHandle: peer access is not supported");
  EXPECT_EQ(pairs[3].status, IpcStatus::kNotRun);  // 1 -> 2: written, never read
  EXPECT_NE(pairs[3].detail.find("rank 2, never reported"), std::string::npos);
  EXPECT_EQ(pairs[4].status, IpcStatus::kNotRun);  // 2 -> 0
  EXPECT_FALSE(all_ipc_ok(pairs));
  EXPECT_TRUE(all_ipc_ok({pairs[0]}));
}

TEST(IpcPattern, DistinctAndNeverZeroForSixteenRanks) {
  std::set<int> seen;
  for (int w = 0; w < 16; ++w) {
    for (int o = 0; o < 16; ++o) {
      if (w == o) continue;
      const int p = ipc_pattern(w, o);
      EXPECT_NE(p, 0);
      EXPECT_TRUE(seen.insert(p).second) << w << "->" << o;
    }
  }
}

TEST(RankJob, RoundTripsAndRefusesOtherSchemas) {
  InferRankJob job;
  job.devices = {0, 0, 0, 0};
  job.host_ids = {"p2pcheck-host-0", "p2pcheck-host-1", "p2pcheck-host-2", "p2pcheck-host-3"};
  job.messages = {Message{Phase::kDecode, 32, 524288}, Message{Phase::kPrefill, 512, 8388608}};
  job.dtype = doc::DataType::kFloat16;
  job.calls = 300;
  job.calls_per_graph = 50;
  job.p2p_disabled = true;
  job.work_dir = "/tmp/x";
  const InferRankJob back = nlohmann::json(job).get<InferRankJob>();
  EXPECT_EQ(back.devices, job.devices);
  EXPECT_EQ(back.host_ids, job.host_ids);
  ASSERT_EQ(back.messages.size(), 2u);
  EXPECT_EQ(back.messages[1].phase, Phase::kPrefill);
  EXPECT_EQ(back.messages[1].bytes, 8388608u);
  EXPECT_EQ(back.dtype, doc::DataType::kFloat16);
  EXPECT_EQ(back.calls_per_graph, 50);
  EXPECT_TRUE(back.p2p_disabled);
  nlohmann::json other = job;
  other["version"] = 2;
  EXPECT_THROW(other.get<InferRankJob>(), InputError);
  nlohmann::json uneven = job;
  uneven["host_ids"] = {"a"};
  EXPECT_THROW(uneven.get<InferRankJob>(), InputError);
}

TEST(GraphSizes, FullGraphsThenTheRest) {
  EXPECT_EQ(graph_sizes(250, 100), (std::vector<int>{100, 100, 50}));
  EXPECT_EQ(graph_sizes(100, 100), (std::vector<int>{100}));
  EXPECT_EQ(graph_sizes(3, 100), (std::vector<int>{3}));
}

}  // namespace
}  // namespace p2p::infer
