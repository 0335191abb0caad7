// The results document: round trip, the versions read and refused, the kept runs of results/
// read, and the text and page made from it.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "document/infer_document.hpp"
#include "infer/group_merge.hpp"
#include "infer/results_html.hpp"
#include "infer/results_text.hpp"
#include "infer/tests/sample_document.hpp"
#include "infer/verdict.hpp"

namespace p2p::infer {
namespace {

using sample::sample_document;

const std::string kKept = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-fleet/infer/";

TEST(InferDocument, RoundTripsEveryField) {
  const InferDocument d = sample_document();
  const nlohmann::json j = d;
  EXPECT_EQ(j.at("schema"), "p2pcheck.infer");
  EXPECT_EQ(j.at("version"), 2);
  EXPECT_TRUE(j.at("verdict").is_null());
  EXPECT_TRUE(j.at("groups").at(2).at("p2p_on").at("messages").at(0).at("latency").is_null());
  const InferDocument back = j.get<InferDocument>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.plan.model.hidden, 8192u);
  EXPECT_EQ(back.groups.at(1).p2p_off->messages.at(1).latency->p50_us, 1.1);
  EXPECT_EQ(back.rankings.at(1).groups.at(0).group, 1u);
  EXPECT_EQ(back.verdicts.size(), d.verdicts.size());
  EXPECT_EQ(back.groups.at(2).p2p_on.messages.at(0).status, doc::MessageStatus::kHang);
  EXPECT_EQ(back.groups.at(0).ipc.at(1).status, doc::IpcStatus::kFail);

  // With what version 2 added: the gate, the sharing check, the interruption and the verdict.
  InferDocument run = d;
  run.skip_gate = true;
  run.gate.decision = topo::GateVerdict::kPass;
  run.gate.detail = "passed";
  run.gpu_sharing = doc::SharingRecord{true, {"nvml"}, {"before: pid 4242 on gpu0"}, {4242}};
  run.interrupted = "SIGTERM with 2 of 3 group(s) measured";
  run.verdict = judge_infer(run, InferRunFacts{15, 4, 4});
  const nlohmann::json k = run;
  const InferDocument again = k.get<InferDocument>();
  EXPECT_EQ(nlohmann::json(again), k);
  ASSERT_TRUE(again.verdict.has_value());
  EXPECT_EQ(again.verdict->interrupt_signal, 15);
  EXPECT_TRUE(again.gpu_sharing->shared);
}

TEST(InferDocument, RefusesOtherSchemasVersionsAndBrokenReferences) {
  nlohmann::json j = sample_document();
  j["version"] = 3;
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j["version"] = 0;
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample_document();
  j["groups"][0]["p2p_on"]["messages"][0]["status"] = "failed";  // not a message's word
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample_document();
  j["schema"] = "p2pcheck.bench";
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample_document();
  j["rankings"][0]["groups"][0]["group"] = 99;
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample_document();
  j["groups"][0].erase("p2p_on");
  EXPECT_THROW(j.get<InferDocument>(), InputError);
}

// A version 1 document has none of what version 2 added: it reads with them empty.
TEST(InferDocument, VersionOneStillReads) {
  nlohmann::json j = sample_document();
  for (const char* added :
       {"tool_version", "gate", "skip_gate", "gpu_sharing", "interrupted", "verdict"})
    j.erase(added);
  j["version"] = 1;
  const InferDocument d = j.get<InferDocument>();
  EXPECT_FALSE(d.verdict.has_value());
  EXPECT_FALSE(d.gpu_sharing.has_value());
  EXPECT_FALSE(d.gate.decision.has_value());
  EXPECT_EQ(d.groups.size(), 3u);
  // Version 2 documents must have them.
  j["version"] = 2;
  EXPECT_THROW(j.get<InferDocument>(), InputError);
}

// The runs kept in results/ were written as version 1 on the H200; they read, and written again
// (as version 2) they read back the same.
TEST(InferDocument, KeptRunsStillRead) {
  for (const char* name : {"infer-logical8.json", "infer-budget-missed.json"}) {
    SCOPED_TRACE(name);
    const nlohmann::json kept = read_json_file(kKept + name);
    ASSERT_EQ(kept.at("version"), 1);
    const InferDocument d = kept.get<InferDocument>();
    EXPECT_FALSE(d.verdict.has_value());
    EXPECT_GT(d.logical_gpus, 0);
    ASSERT_FALSE(d.groups.empty());
    const nlohmann::json again = d;
    EXPECT_EQ(again.at("version"), 2);
    EXPECT_EQ(nlohmann::json(again.get<InferDocument>()), again);
    EXPECT_EQ(again.at("groups"), kept.at("groups"));
    EXPECT_EQ(again.at("plan"), kept.at("plan"));
    EXPECT_EQ(again.at("verdicts"), kept.at("verdicts"));
  }
}

TEST(ResultsText, TablesRankingIpcAndBudget) {
  const std::string text = format_results(sample_document());
  EXPECT_NE(text.find("TP=4 GPUs 0-3 (NODE x6; one NUMA node (0), worst path NODE)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("CUDA IPC check: 1/2 ordered pairs passed"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 1 (GPU 1) -> rank 0 (GPU 0): fail: rank 1 could not write"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("P2P-off p50"), std::string::npos);
  EXPECT_NE(text.find("hang"), std::string::npos);
  EXPECT_NE(text.find("problem: rank 2 hang"), std::string::npos);
  // 160 calls x 0.3 us = 48 us per token for the best TP=4 group; 80 us for the other.
  EXPECT_NE(
      text.find(
          "TP=4: GPUs 0-3 (NODE x6; one NUMA node (0), worst path NODE) 48.0 us/token [P2P off 176.0]; "
          "GPUs 0,1,4,5"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("recommended: GPUs 0-3"), std::string::npos);
  EXPECT_NE(text.find("PASS TP=4 decode_b32 GPUs 0-3: 48.0 us <= 60.0 us"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("LOGICAL RUN"), std::string::npos);
  InferDocument logical = sample_document();
  logical.logical_gpus = 8;
  logical.devices = {0};
  EXPECT_NE(
      format_results(logical).find("LOGICAL RUN: up to 8 rank processes shared CUDA device 0"),
      std::string::npos);
}

TEST(ResultsHtml, OnePageWithRankingTablesAndEscapedText) {
  InferDocument d = sample_document();
  d.hostname = "host<1>";
  d.groups[0].ipc[1].detail = "peer \"A\" & <B>";
  const std::string html = render_infer_html(d);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>p2pcheck infer: host&lt;1&gt;</title>"), std::string::npos);
  EXPECT_EQ(html.find("host<1>"), std::string::npos);
  EXPECT_NE(html.find("peer &quot;A&quot; &amp; &lt;B&gt;"), std::string::npos) << html;
  EXPECT_NE(html.find("recommended: GPUs 0-3"), std::string::npos);
  EXPECT_NE(html.find("PASS</span> TP=4 decode_b32"), std::string::npos) << html;
  EXPECT_NE(html.find("<th>P2P off p50 us</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>48.0</td>"),
            std::string::npos);  // TP=4 GPUs 0-3, decode_b32 cost per token
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("LOGICAL RUN"), std::string::npos);
  d.logical_gpus = 4;
  EXPECT_NE(render_infer_html(d).find("LOGICAL RUN"), std::string::npos);
}

// A run's page opens with its verdict; a document without one (version 1) has no banner.
TEST(ResultsHtml, OpensWithTheVerdictWhereTheDocumentHasOne) {
  InferDocument d = sample_document();
  EXPECT_EQ(render_infer_html(d).find("id=\"verdict\""), std::string::npos);
  d.verdict = judge_infer(d, InferRunFacts{});
  const std::string html = render_infer_html(d);
  const auto banner = html.find("<div class=\"verdict fail\" id=\"verdict\">");
  ASSERT_NE(banner, std::string::npos) << html.substr(0, 2000);
  EXPECT_LT(banner, html.find("Ranking by"));
  EXPECT_NE(html.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(html.find("all_reduce TP=4 GPUs 0,1,4,5 decode_b1: did not complete"),
            std::string::npos)
      << html.substr(banner, 2000);
}

TEST(GroupMerge, MeasuredStoppedAndMissingMessages) {
  const InferPlan plan = make_plan(model_shape_from_options(1024, 4, "bf16"), {2}, {1, 16}, {64});
  nccl::MergedRun merged;
  nccl::MergedCase ok;
  ok.index = 0;
  ok.sample_us = {5, 6, 7};
  nccl::MergedCase hung;
  hung.index = 1;
  hung.status = doc::CollectiveStatus::kHang;
  hung.detail = "no completion";
  merged.cases = {ok, hung};
  merged.ends = {doc::RankProcessEnd{0, 1, doc::RankEnd::kDone, 0, std::nullopt, "prefill_t64", ""},
                 doc::RankProcessEnd{1, 2, doc::RankEnd::kHang, 5, std::nullopt, "decode_b1",
                                     "decode_b16: no completion"}};
  merged.warnings = {
      "rank 1 stopped its sweep (hang): decode_b16: no completion; last completed case decode_b1"};
  const GroupRun run = group_run_from(plan.messages, 2, plan.calls_per_step, merged, true);
  ASSERT_EQ(run.messages.size(), 3u);
  EXPECT_TRUE(run.p2p_disabled);
  EXPECT_EQ(run.messages[0].status, doc::MessageStatus::kOk);
  EXPECT_DOUBLE_EQ(run.messages[0].latency->p50_us, 6);
  EXPECT_DOUBLE_EQ(*run.messages[0].step_us, 48);
  EXPECT_EQ(run.messages[1].status, doc::MessageStatus::kHang);
  EXPECT_EQ(run.messages[2].status, doc::MessageStatus::kNotRun);
  ASSERT_EQ(run.problems.size(), 1u);
  EXPECT_EQ(run.problems[0], merged.warnings[0]);
  EXPECT_EQ(merge_plan(plan.messages, 3).at(2).name, "prefill_t64");
  EXPECT_EQ(merge_plan(plan.messages, 3).at(0).participants, (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace p2p::infer
