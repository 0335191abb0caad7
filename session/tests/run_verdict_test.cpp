// How a measuring run ends, judged from results documents kept from real runs on the H200
// (results/h200-vm-2026-12-03-one-gpu, each with the exit code its run ended with in the .txt
// beside it) and from documents changed in one field: the exit codes README "Exit codes"
// documents, now from the run's one verdict.
#include "session/run_verdict.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "common/file_io.hpp"

namespace {

using p2p::doc::BenchDocument;
using p2p::session::judge_measured;
using p2p::session::run_end;

std::string kept(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-one-gpu/" + name;
}

BenchDocument document(const std::string& name) {
  return p2p::read_json_file(kept(name)).get<BenchDocument>();
}

int exit_of(BenchDocument doc, int sig = 0) {
  judge_measured(doc, {}, std::nullopt, sig, doc.written_by);
  return run_end(doc).exit_code;
}

TEST(RunEnd, AWholeRunWithEveryFigureOkIsZeroAndSaysSoInItsSummary) {
  BenchDocument doc = document("bench-logical8.json");
  judge_measured(doc, {}, std::nullopt, 0, "bench");
  const auto end = run_end(doc);
  EXPECT_EQ(end.exit_code, 0);
  EXPECT_EQ(end.summary.at("ok"), 745);
  EXPECT_EQ(end.summary.at("failed"), 0);
  EXPECT_EQ(end.summary.at("interrupted"), "");
  EXPECT_TRUE(end.summary.at("gpu_shared").is_null());  // a document from before the check
  EXPECT_EQ(end.summary.at("verdict").at("headline"), "PASS");
  EXPECT_EQ(end.summary.at("verdict").at("caveats").at(0).at("kind"), "logical");
}

TEST(RunEnd, ASignalWinsOverTheFigures) {
  BenchDocument doc = document("bench-sigterm.json");
  judge_measured(doc, {}, std::nullopt, SIGTERM, "bench");
  const auto end = run_end(doc);
  EXPECT_EQ(end.exit_code, 143);  // bench-sigterm.txt: exit 143
  EXPECT_EQ(end.summary.at("ok"), 420);
  EXPECT_EQ(end.summary.at("interrupted"), "SIGTERM after 420 figures; the rest were not measured");
  EXPECT_EQ(end.summary.at("verdict").at("headline"), "FAIL");
  EXPECT_EQ(exit_of(document("bench-sigterm.json"), SIGINT), 130);
}

TEST(RunEnd, AFailedVerificationIsOneAndAnErrorFour) {
  BenchDocument doc = document("bench-logical8.json");
  ASSERT_FALSE(doc.bandwidth.empty());
  doc.bandwidth.back().status = p2p::doc::FigureStatus::kError;
  EXPECT_EQ(exit_of(doc), 4);
  doc.bandwidth.front().status = p2p::doc::FigureStatus::kFailed;
  EXPECT_EQ(exit_of(doc), 1);  // a wrong result outranks a case that could not run
}

TEST(RunEnd, ASharedGpuFailsTheRunAndTheSummarySaysWhy) {
  BenchDocument doc = document("bench-logical8.json");
  doc.gpu_sharing = p2p::doc::SharingRecord{};
  doc.gpu_sharing->shared = true;
  doc.gpu_sharing->notes = {"before: 0000:00:06.0: pid 77 (python3, compute, 2GiB)"};
  judge_measured(doc, {}, std::nullopt, 0, "bench");
  const auto end = run_end(doc);
  EXPECT_EQ(end.exit_code, 1);
  EXPECT_EQ(end.summary.at("gpu_shared"), true);
  const std::string first = end.summary.at("verdict").at("reasons").at(0);
  EXPECT_EQ(first.rfind("shared run: ", 0), 0u) << first;
  EXPECT_NE(first.find("pid 77 (python3"), std::string::npos) << first;
}

TEST(RunEnd, KeptNcclRunsEndAsTheyDidOnTheH200) {
  EXPECT_EQ(exit_of(document("nccl-ranks8.json")), 0);                  // nccl-ranks8.txt: exit 0
  EXPECT_EQ(exit_of(document("nccl-killed-rank.json")), 4);             // a rank process died
  EXPECT_EQ(exit_of(document("nccl-stalled-rank.json")), 5);            // a rank stalled
  EXPECT_EQ(exit_of(document("nccl-stalled-rank.json"), SIGINT), 130);  // a signal wins
}

TEST(RunEnd, WrongResultsAndMissedThresholdsAreOne) {
  const BenchDocument doc = document("nccl-ranks8.json");
  ASSERT_TRUE(doc.nccl.has_value());
  ASSERT_FALSE(doc.nccl->run.results.empty());

  BenchDocument wrong = doc;
  wrong.nccl->run.results.front().status = p2p::doc::CollectiveStatus::kWrong;
  EXPECT_EQ(exit_of(wrong), 1);

  BenchDocument off_error = doc;
  off_error.nccl->p2p_off = doc.nccl->run;
  off_error.nccl->p2p_off->results.back().status = p2p::doc::CollectiveStatus::kError;
  EXPECT_EQ(exit_of(off_error), 1);  // the P2P-off sweep counts as much

  BenchDocument missed = doc;
  p2p::doc::BusbwVerdict v;
  v.status = p2p::doc::ThresholdStatus::kFail;
  missed.nccl->verdicts.push_back(v);
  EXPECT_EQ(exit_of(missed), 1);
}

TEST(RunEnd, AHangOutranksEverythingAndAWrongResultADeadRank) {
  BenchDocument doc = document("nccl-killed-rank.json");
  // The results before the rank died are real: wrong data among them is the finding (exit 1),
  // not hidden behind the run's own failure (exit 4).
  doc.nccl->run.results.front().status = p2p::doc::CollectiveStatus::kWrong;
  EXPECT_EQ(exit_of(doc), 1);
  doc.nccl->run.results.back().status = p2p::doc::CollectiveStatus::kHang;
  EXPECT_EQ(exit_of(doc), 5);
}

}  // namespace
