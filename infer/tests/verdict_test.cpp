// The one verdict of an infer run: a test per rule, each on the sample document changed only as
// the test says, and the runs kept in results/ judged.
#include "infer/verdict.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "infer/tests/sample_document.hpp"

namespace p2p::infer {
namespace {

using doc::CaveatKind;
using doc::Outcome;

// The sample with nothing wrong: every message measured, every IPC pair passed, budget met.
InferDocument healthy() {
  InferDocument d = sample::sample_document();
  for (auto& g : d.groups) {
    g.ipc[1].status = doc::IpcStatus::kOk;
    g.ipc[1].detail.clear();
    g.p2p_on.problems.clear();
    g.p2p_on.messages[0] = g.p2p_on.messages[1];  // a measured message in place of the hung one
    g.p2p_on.messages[0].message = "decode_b1";
  }
  return d;
}

std::optional<doc::Check> first_reason(const doc::RunVerdict& v) {
  const auto reasons = v.reasons();
  if (reasons.empty()) return std::nullopt;
  return reasons.front();
}

TEST(InferVerdict, AHealthyRunPassesWithEveryMessageAndPairJudged) {
  const doc::RunVerdict v = judge_infer(healthy(), InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kPass);
  EXPECT_EQ(doc::exit_code(v), kExitOk);
  EXPECT_EQ(v.judged_by, "infer");
  EXPECT_EQ(v.policy, "--budget-us-per-token 60");
  // 3 groups x 3 messages x P2P on and off, one IPC check per group, 2 TP sizes x 2 batches.
  EXPECT_EQ(v.count(Outcome::kPass), 18 + 3 + 4);
  EXPECT_TRUE(v.caveats.empty());
}

TEST(InferVerdict, WrongDataFails) {
  InferDocument d = healthy();
  d.groups[1].p2p_off->messages[2].status = doc::MessageStatus::kWrong;
  d.groups[1].p2p_off->messages[2].detail = "1024 wrong elements";
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(doc::exit_code(v), kExitFailed);
  ASSERT_TRUE(first_reason(v).has_value());
  EXPECT_EQ(first_reason(v)->subject, "TP=4 GPUs 0-3 (P2P off) prefill_t2048");
  EXPECT_EQ(first_reason(v)->message, "wrong data after the all-reduce: 1024 wrong elements");
}

TEST(InferVerdict, AHangFailsAndMarksTheRunHung) {
  InferDocument d = healthy();
  d.groups[2].p2p_on.messages[0].status = doc::MessageStatus::kHang;
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_TRUE(v.hung);
  EXPECT_EQ(doc::exit_code(v), kExitHang);
  // Wrong data elsewhere does not hide the hang's exit code.
  d.groups[0].p2p_on.messages[1].status = doc::MessageStatus::kWrong;
  EXPECT_EQ(doc::exit_code(judge_infer(d, InferRunFacts{})), kExitHang);
}

TEST(InferVerdict, AnErrorOrAMessageNoRankReportedErrs) {
  InferDocument d = healthy();
  d.groups[0].p2p_on.messages[2].status = doc::MessageStatus::kNotRun;
  d.groups[0].p2p_on.messages[2].detail = "no rank reported it";
  doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(doc::exit_code(v), kExitRuntime);
  d.groups[0].p2p_on.messages[2].status = doc::MessageStatus::kError;
  EXPECT_EQ(doc::exit_code(judge_infer(d, InferRunFacts{})), kExitRuntime);
  // Wrong data is a verdict against the host: it outranks the error (exit 1; before the
  // verdict, infer exited 4 here).
  d.groups[1].p2p_on.messages[0].status = doc::MessageStatus::kWrong;
  v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(doc::exit_code(v), kExitFailed);
}

TEST(InferVerdict, ARankProcessThatDidNotEndWellErrs) {
  InferDocument d = healthy();
  d.groups[1].p2p_off->problems = {"rank 3 died (signal 9) after decode_b32"};
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(doc::exit_code(v), kExitRuntime);
  EXPECT_EQ(first_reason(v)->rule, "rank_process");
  EXPECT_EQ(first_reason(v)->subject, "TP=4 GPUs 0-3 (P2P off)");
}

TEST(InferVerdict, AFailedIpcPairFails) {
  InferDocument d = healthy();
  d.groups[0].ipc[1].status = doc::IpcStatus::kFail;
  d.groups[0].ipc[1].detail = "rank 1 could not write: cudaIpcOpenMemHandle: invalid argument";
  doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(doc::exit_code(v), kExitFailed);
  EXPECT_EQ(first_reason(v)->rule, "cuda_ipc");
  EXPECT_EQ(first_reason(v)->subject, "TP=2 GPUs 0,1 rank 1 (GPU 1) -> rank 0 (GPU 0)");
  EXPECT_EQ(first_reason(v)->message,
            "fail: rank 1 could not write: cudaIpcOpenMemHandle: invalid argument");
  // A pair nobody reported could not be checked.
  d.groups[0].ipc[1].status = doc::IpcStatus::kNotRun;
  v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kError);
}

TEST(InferVerdict, AMissedBudgetFailsWithTheFigureAndTheBudget) {
  InferDocument d = healthy();
  d.verdicts[3].pass = false;
  d.verdicts[3].detail = "48.0 us > 40.0 us";
  d.verdicts[3].budget_us = 40;
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(doc::exit_code(v), kExitFailed);
  const std::optional<doc::Check> r = first_reason(v);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->rule, "budget");
  EXPECT_EQ(r->subject, "TP=4 decode_b32 GPUs 0-3");
  EXPECT_EQ(r->message, "48.0 us > 40.0 us (recommended group; --budget-us-per-token 60)");
  EXPECT_EQ(r->value, 48.0);
  EXPECT_EQ(r->expected, 40.0);
  EXPECT_EQ(r->unit, "us");
}

TEST(InferVerdict, ATpSizeWithoutAGroupIsSkippedWithWhy) {
  InferDocument d = healthy();
  d.rankings.push_back(TpRanking{8, "decode_b32", {}, "needs 8 GPUs, 4 usable"});
  d.verdicts.clear();
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kPass);
  EXPECT_EQ(v.count(Outcome::kSkipped), 1);
  EXPECT_EQ(v.checks.back().message, "no group measured: needs 8 GPUs, 4 usable");
}

TEST(InferVerdict, LogicalGpusAreACaveatAndTheirTimesAreNotJudgedAgainstLinks) {
  InferDocument d = healthy();
  d.logical_gpus = 4;
  d.devices = {0};
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kPass);
  EXPECT_EQ(doc::exit_code(v), kExitOk);
  ASSERT_TRUE(v.has_caveat(CaveatKind::kLogicalGpus));
  EXPECT_NE(v.caveats[0].detail.find("LOGICAL RUN: up to 4 rank processes"), std::string::npos);
  EXPECT_EQ(v.count(Outcome::kNotMeaningful), 1);
}

TEST(InferVerdict, ASharedGpuFailsWithWhoSharedIt) {
  InferDocument d = healthy();
  d.gpu_sharing =
      doc::SharingRecord{true, {"nvml"}, {"before: 0000:41:00.0: pid 4242 (python3)"}, {}};
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  ASSERT_TRUE(v.has_caveat(CaveatKind::kShared));
  EXPECT_EQ(first_reason(v)->rule, "shared");
  EXPECT_NE(first_reason(v)->message.find("pid 4242 (python3)"), std::string::npos);
  d.gpu_sharing->shared = false;
  EXPECT_EQ(judge_infer(d, InferRunFacts{}).outcome, Outcome::kPass);
}

TEST(InferVerdict, AnInterruptedRunFailsAndExitsAsTheSignalAsks) {
  InferDocument d = healthy();
  d.interrupted = "SIGTERM with 2 of 3 group(s) measured";
  d.groups[2].p2p_on.messages[2].status = doc::MessageStatus::kNotRun;
  d.groups[2].p2p_on.problems = {"rank 0 killed: the run was asked to stop"};
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{15, std::nullopt, 0});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(doc::exit_code(v), 128 + 15);
  ASSERT_TRUE(v.has_caveat(CaveatKind::kInterrupted));
  EXPECT_EQ(first_reason(v)->rule, "interrupted");
  // What it did not reach is skipped, not an error.
  EXPECT_EQ(v.count(Outcome::kError), 0);
  EXPECT_EQ(v.count(Outcome::kSkipped), 2);
}

TEST(InferVerdict, AGateOverriddenWithSkipGateIsACaveatAndFailsWhereItBlocked) {
  InferDocument d = healthy();
  d.skip_gate = true;
  d.gate.decision = topo::GateVerdict::kPass;
  d.gate.reasons = topo::GateDecision{};
  d.gate.reasons->passed = true;
  doc::RunVerdict v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kPass);
  EXPECT_TRUE(v.has_caveat(CaveatKind::kGateOverride));
  d.gate.decision = topo::GateVerdict::kBlock;
  d.gate.reasons->passed = false;
  d.gate.detail = "1 blocking reason(s); measured anyway (--skip-gate)";
  v = judge_infer(d, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(first_reason(v)->rule, "gate");
}

TEST(InferVerdict, FewerGpusThanExpectedFails) {
  const InferDocument d = healthy();
  EXPECT_EQ(judge_infer(d, InferRunFacts{0, 8, 8}).outcome, Outcome::kPass);
  const doc::RunVerdict v = judge_infer(d, InferRunFacts{0, 8, 7});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(first_reason(v)->message, "CUDA showed 7 GPU(s); --expect-gpus 8");
}

TEST(InferVerdict, TheLastLineSaysPassOrFailWithTheFirstReason) {
  const std::string text = doc::format_verdict(judge_infer(sample::sample_document(), {}), "infer");
  EXPECT_NE(text.find("reasons, most important first:\n  FAIL  all_reduce TP=4 GPUs 0,1,4,5 "
                      "decode_b1: did not complete within the deadline"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\np2pcheck infer: FAIL — all_reduce TP=4 GPUs 0,1,4,5 decode_b1"),
            std::string::npos)
      << text;
}

// The two runs kept from the H200: a logical 8-rank profile that passed, and a budget no group
// can meet (0.001 us) that exited 1. Judged now, they say so with their reasons.
TEST(InferVerdict, KeptRunsJudgedAsTheyEnded) {
  const std::string kept = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-fleet/infer/";
  const auto passed = read_json_file(kept + "infer-logical8.json").get<InferDocument>();
  doc::RunVerdict v = judge_infer(passed, InferRunFacts{});
  EXPECT_EQ(v.outcome, Outcome::kPass) << doc::format_verdict(v, "infer");
  EXPECT_TRUE(v.has_caveat(CaveatKind::kLogicalGpus));

  const auto missed = read_json_file(kept + "infer-budget-missed.json").get<InferDocument>();
  v = judge_infer(missed, InferRunFacts{});
  EXPECT_EQ(doc::exit_code(v), kExitFailed);
  ASSERT_TRUE(first_reason(v).has_value());
  EXPECT_EQ(first_reason(v)->rule, "budget");
  EXPECT_EQ(first_reason(v)->subject, "TP=2 decode_b1 GPUs 0,1");
}

}  // namespace
}  // namespace p2p::infer
