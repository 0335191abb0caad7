// The results document: round trip, versions refused, and the text printed from it.
#include "infer/document.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "infer/group_merge.hpp"
#include "infer/results_html.hpp"
#include "infer/results_text.hpp"

namespace p2p::infer {
namespace {

InferDocument sample() {
  InferDocument d;
  d.started_utc = "2026-12-03T13:00:00Z";
  d.hostname = "gpu-host";
  d.wall_s = 12.5;
  d.nccl_version = "2.28.3";
  d.topology_source = "this host (hwloc)";
  d.devices = {0, 1, 2, 3};
  d.plan = make_plan(model_shape_from_options(8192, 80, "bf16"), {2, 4}, {1, 32}, {2048});
  d.measure = MeasureSettings{2000, 100, 20, 60.0, true, true};
  d.ranking_message = "decode_b32";
  const auto group = [&](int tp, std::vector<int> gpus, std::string sig, double p50, double off) {
    GroupResult g;
    g.tp = tp;
    g.gpus = std::move(gpus);
    for (int x : g.gpus) g.pci_bus_ids.push_back("0000:0" + std::to_string(x) + ":00.0");
    g.signature = std::move(sig);
    g.worst_path = "NODE";
    g.description = "one NUMA node (0), worst path NODE";
    g.alike = 3;
    for (const Message& m : d.plan.messages) {
      g.p2p_on.messages.push_back(
          measured_message(m, tp, d.plan.calls_per_step, {p50, p50, 2 * p50}));
    }
    g.p2p_off = GroupRun{};
    g.p2p_off->p2p_disabled = true;
    for (const Message& m : d.plan.messages) {
      g.p2p_off->messages.push_back(measured_message(m, tp, d.plan.calls_per_step, {off}));
    }
    g.ipc = {IpcPairResult{0, 1, g.gpus[0], g.gpus[1], "ok", ""},
             IpcPairResult{1, 0, g.gpus[1], g.gpus[0], "fail",
                           "rank 1 could not write: cudaIpcOpenMemHandle: ..."}};
    return g;
  };
  d.groups = {group(2, {0, 1}, "NODE x1", 0.2, 0.9), group(4, {0, 1, 2, 3}, "NODE x6", 0.3, 1.1),
              group(4, {0, 1, 4, 5}, "NODE x2 + SYS x4", 0.5, 1.5)};
  d.groups[2].p2p_on.messages[0].status = "hang";
  d.groups[2].p2p_on.messages[0].latency.reset();
  d.groups[2].p2p_on.messages[0].step_us.reset();
  d.groups[2].p2p_on.messages[0].busbw_gbps.reset();
  d.groups[2].p2p_on.problems = {"rank 2 hang: decode_b1: no completion"};
  d.rankings = rank_groups(d.plan, d.groups, d.ranking_message, 4);
  d.budget_us_per_token = "60";
  d.verdicts = judge_budget(parse_budget("60", d.plan), d.plan, d.rankings, d.groups);
  return d;
}

TEST(InferDocument, RoundTripsEveryField) {
  const InferDocument d = sample();
  const nlohmann::json j = d;
  EXPECT_EQ(j.at("schema"), "p2pcheck.infer");
  EXPECT_EQ(j.at("version"), 1);
  EXPECT_TRUE(j.at("groups").at(2).at("p2p_on").at("messages").at(0).at("latency").is_null());
  const InferDocument back = j.get<InferDocument>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.plan.model.hidden, 8192u);
  EXPECT_EQ(back.groups.at(1).p2p_off->messages.at(1).latency->p50_us, 1.1);
  EXPECT_EQ(back.rankings.at(1).groups.at(0).group, 1u);
  EXPECT_EQ(back.verdicts.size(), d.verdicts.size());
}

TEST(InferDocument, RefusesOtherSchemasVersionsAndBrokenReferences) {
  nlohmann::json j = sample();
  j["version"] = 2;
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample();
  j["schema"] = "p2pcheck.bench";
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample();
  j["rankings"][0]["groups"][0]["group"] = 99;
  EXPECT_THROW(j.get<InferDocument>(), InputError);
  j = sample();
  j["groups"][0].erase("p2p_on");
  EXPECT_THROW(j.get<InferDocument>(), InputError);
}

// The worst thing that happened decides: a hang over a dead rank over wrong data or a missed
// budget, each found in either setting.
TEST(InferDocument, ExitCodeIsTheWorstOutcome) {
  InferDocument d = sample();  // a hang in group 2, P2P on
  EXPECT_EQ(exit_code_of(d), kExitHang);

  d.groups[2].p2p_on.messages[0].status = "ok";
  EXPECT_EQ(exit_code_of(d), kExitRuntime);  // its rank's problem is still there
  d.groups[2].p2p_on.problems.clear();
  d.verdicts.clear();
  EXPECT_EQ(exit_code_of(d), kExitOk);

  d.groups[1].p2p_off->messages[1].status = "wrong";
  EXPECT_EQ(exit_code_of(d), kExitFailed);
  d.groups[0].p2p_off->messages[0].status = "not_run";
  EXPECT_EQ(exit_code_of(d), kExitRuntime);
  d.groups[0].p2p_off->messages[0].status = "error";
  EXPECT_EQ(exit_code_of(d), kExitRuntime);
  d.groups[0].p2p_off->messages[0].status = "hang";
  EXPECT_EQ(exit_code_of(d), kExitHang);

  InferDocument missed = sample();
  for (auto& g : missed.groups) {
    for (auto& m : g.p2p_on.messages) m.status = "ok";
    g.p2p_on.problems.clear();
  }
  missed.verdicts = {BudgetVerdict{2, {0, 1}, "decode_b32", 10.0, 12.0, false, "12.0 us > 10 us"}};
  EXPECT_EQ(exit_code_of(missed), kExitFailed);
  missed.verdicts[0].pass = true;
  EXPECT_EQ(exit_code_of(missed), kExitOk);
}

TEST(ResultsText, TablesRankingIpcAndBudget) {
  const std::string text = format_results(sample());
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
  InferDocument logical = sample();
  logical.logical_gpus = 8;
  logical.devices = {0};
  EXPECT_NE(
      format_results(logical).find("LOGICAL RUN: up to 8 rank processes shared CUDA device 0"),
      std::string::npos);
}

TEST(ResultsHtml, OnePageWithRankingTablesAndEscapedText) {
  InferDocument d = sample();
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
  EXPECT_EQ(run.messages[0].status, "ok");
  EXPECT_DOUBLE_EQ(run.messages[0].latency->p50_us, 6);
  EXPECT_DOUBLE_EQ(*run.messages[0].step_us, 48);
  EXPECT_EQ(run.messages[1].status, "hang");
  EXPECT_EQ(run.messages[2].status, "not_run");
  ASSERT_EQ(run.problems.size(), 1u);
  EXPECT_EQ(run.problems[0], merged.warnings[0]);
  EXPECT_EQ(merge_plan(plan.messages, 3).at(2).name, "prefill_t64");
  EXPECT_EQ(merge_plan(plan.messages, 3).at(0).participants, (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace p2p::infer
