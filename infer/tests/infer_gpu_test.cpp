// GPU tests (label gpu) of `p2pcheck infer` through the built executable, as a user runs it:
// the whole profile on ONE GPU with rank processes sharing it (each its own NCCL host), in CUDA
// graphs, with the CUDA IPC check between the processes and P2P off beside it; a budget nobody
// can meet exits 1. Checks data and structure, never speed. Skipped, with the reason, where NCCL
// or a GPU is missing.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "document/infer_document.hpp"
#include "infer/results.hpp"
#include "nccl/run/nccl_api.hpp"
#include "nccl/run/tests/nccl_gpu_or_skip.hpp"

namespace p2p::infer {
namespace {

class InferGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = p2p::testing::nccl_gpu_unusable(&devices_)) GTEST_SKIP() << *why;
  }

  struct Ran {
    testing::CliResult cli;
    std::optional<InferDocument> doc;
  };
  Ran run(const std::string& args) {
    const std::string json = dir_ + "/infer.json";
    std::filesystem::remove(json);
    Ran r;
    r.cli = testing::run_captured("'" + std::string(P2PCHECK_EXE) + "' infer " + args + " --json " +
                                  json);
    if (std::filesystem::exists(json)) r.doc = read_json_file(json).get<InferDocument>();
    return r;
  }

  int devices_ = 0;
  p2p::TempDir tmp_{"p2p_infer_gpu_test"};
  std::string dir_{tmp_.path()};
};

// Small: ranks that share one GPU take turns on it, so one call of four ranks takes tens of ms.
const char* kSmall =
    "--hidden 1024 --layers 4 --batch 1,16 --prefill 64 --calls 20 --calls-per-graph 8 --warmup 1 "
    "--timeout 60";

TEST_F(InferGpu, WholeProfileOnOneGpuWithLogicalRanks) {
  const Ran r = run(std::string(kSmall) + " --tp 2,4 --devices 0 --logical-gpus 4");
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.err << r.cli.out;
  ASSERT_TRUE(r.doc.has_value());
  const InferDocument& d = *r.doc;
  EXPECT_EQ(d.logical_gpus, 4);
  EXPECT_NE(r.cli.out.find("LOGICAL RUN"), std::string::npos) << r.cli.out;
  ASSERT_EQ(d.groups.size(), 2u);
  for (const GroupResult& g : d.groups) {
    SCOPED_TRACE("TP=" + std::to_string(g.tp));
    EXPECT_EQ(g.ipc.size(), static_cast<std::size_t>(g.tp * (g.tp - 1)));
    for (const IpcPairResult& p : g.ipc) EXPECT_EQ(p.status, doc::IpcStatus::kOk) << p.detail;
    ASSERT_EQ(g.p2p_on.messages.size(), 3u);
    for (const MessageResult& m : g.p2p_on.messages) {
      EXPECT_EQ(m.status, doc::MessageStatus::kOk) << m.message << ": " << m.detail;
      ASSERT_TRUE(m.latency.has_value()) << m.message;
      EXPECT_EQ(m.latency->calls, 20u);  // graphs of 8, 8 and 4
      EXPECT_LE(m.latency->p50_us, m.latency->p99_us);
      EXPECT_DOUBLE_EQ(*m.step_us, 8 * m.latency->p50_us);  // 2 x 4 layers
    }
    ASSERT_TRUE(g.p2p_off.has_value());
    EXPECT_TRUE(g.p2p_off->p2p_disabled);
    for (const MessageResult& m : g.p2p_off->messages)
      EXPECT_EQ(m.status, doc::MessageStatus::kOk) << m.message << ": " << m.detail;
    EXPECT_TRUE(g.p2p_on.problems.empty()) << g.p2p_on.problems.front();
  }
  ASSERT_EQ(d.rankings.size(), 2u);
  EXPECT_EQ(d.ranking_message, "decode_b16");
  EXPECT_NE(r.cli.out.find("recommended: GPUs 0,1"), std::string::npos) << r.cli.out;
  // The pipeline's part: the gate ran, the sharing check looked, and one verdict ends the run.
  EXPECT_TRUE(d.gate.decision.has_value());
  EXPECT_TRUE(d.gpu_sharing.has_value());
  ASSERT_TRUE(d.verdict.has_value());
  EXPECT_TRUE(d.verdict->has_caveat(doc::CaveatKind::kLogicalGpus));
  EXPECT_NE(r.cli.out.find("\np2pcheck infer: PASS"), std::string::npos) << r.cli.out;
}

TEST_F(InferGpu, JsonLinesAndJunitCarryEveryGroupAndTheVerdict) {
  const std::string lines = dir_ + "/infer.jsonl", junit = dir_ + "/infer.xml";
  const Ran r =
      run(std::string(kSmall) + " --tp 2 --devices 0 --logical-gpus 2 --no-p2p-off --jsonl " +
          lines + " --junit " + junit);
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.err << r.cli.out;
  const std::string text = try_read_text_file(lines).value_or("");
  std::vector<nlohmann::json> kinds;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    kinds.push_back(nlohmann::json::parse(text.substr(at, end - at)));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  ASSERT_GE(kinds.size(), 3u);
  EXPECT_EQ(kinds.front().at("kind"), "run_start");
  EXPECT_EQ(kinds.back().at("kind"), "run_end");
  EXPECT_EQ(kinds.back().at("record").at("verdict").at("headline"), "PASS");
  int groups = 0;
  for (const auto& k : kinds) groups += k.at("kind") == "infer_group" ? 1 : 0;
  EXPECT_EQ(groups, 1);
  const std::string xml = try_read_text_file(junit).value_or("");
  EXPECT_NE(xml.find("acceptance.all_reduce"), std::string::npos) << xml.substr(0, 400);
}

TEST_F(InferGpu, ABudgetNoGroupCanMeetExitsOne) {
  const Ran r = run(std::string(kSmall) +
                    " --tp 2 --devices 0 --logical-gpus 2 --no-p2p-off --no-ipc-check "
                    "--budget-us-per-token 0.001");
  EXPECT_EQ(r.cli.exit_code, 1) << r.cli.err << r.cli.out;
  ASSERT_TRUE(r.doc.has_value());
  ASSERT_EQ(r.doc->verdicts.size(), 2u);  // TP=2 at batches 1 and 16
  EXPECT_FALSE(r.doc->verdicts[0].pass);
  EXPECT_NE(r.cli.out.find("FAIL TP=2 decode_b1"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("\np2pcheck infer: FAIL — budget TP=2 decode_b"), std::string::npos)
      << r.cli.out;
  ASSERT_TRUE(r.doc->verdict.has_value());
  EXPECT_EQ(r.doc->verdict->outcome, doc::Outcome::kFail);
  EXPECT_FALSE(r.doc->groups.at(0).p2p_off.has_value());
  EXPECT_TRUE(r.doc->groups.at(0).ipc.empty());
}

TEST_F(InferGpu, RealGroupsWhereTheHostHasTwoGpus) {
  if (devices_ < 2)
    GTEST_SKIP() << "one CUDA device: no physical group of two (the logical test covers one GPU)";
  const Ran r = run(std::string(kSmall) + " --tp 2 --max-groups 2");
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.err << r.cli.out;
  ASSERT_TRUE(r.doc.has_value());
  EXPECT_EQ(r.doc->logical_gpus, 0);
  ASSERT_FALSE(r.doc->groups.empty());
  for (const IpcPairResult& p : r.doc->groups[0].ipc) {
    // Pass or not is the host's; a failed pair must say why.
    if (p.status != doc::IpcStatus::kOk) {
      EXPECT_FALSE(p.detail.empty());
    }
  }
}

}  // namespace
}  // namespace p2p::infer
