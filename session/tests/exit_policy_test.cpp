// The exit policy of bench and nccl, judged from results documents kept from real runs on the
// H200 (results/h200-vm-2026-12-03-one-gpu, each with the exit code its run ended with in the
// .txt beside it) and from documents changed in one field.
#include "session/exit_policy.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "common/file_io.hpp"

namespace {

using p2p::bench::BenchDocument;
using p2p::session::bench_verdict;
using p2p::session::nccl_verdict;

std::string kept(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-one-gpu/" + name;
}

BenchDocument document(const std::string& name) {
  return p2p::read_json_file(kept(name)).get<BenchDocument>();
}

int nccl_exit(const std::string& name, int sig = 0) {
  const BenchDocument doc = document(name);
  return nccl_verdict(p2p::nccl::nccl_section_from_document(doc, name), doc, sig).exit_code;
}

TEST(BenchExitPolicy, AWholeRunWithEveryFigureOkIsZero) {
  const auto v = bench_verdict(document("bench-logical8.json"), 0);
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.summary.at("ok"), 745);
  EXPECT_EQ(v.summary.at("failed"), 0);
  EXPECT_EQ(v.summary.at("interrupted"), "");
  EXPECT_TRUE(v.summary.at("gpu_shared").is_null());  // a document from before the sharing check
}

TEST(BenchExitPolicy, ASignalWinsOverTheFigures) {
  const auto v = bench_verdict(document("bench-sigterm.json"), SIGTERM);
  EXPECT_EQ(v.exit_code, 143);  // bench-sigterm.txt: exit 143
  EXPECT_EQ(v.summary.at("ok"), 420);
  EXPECT_EQ(v.summary.at("interrupted"), "SIGTERM after 420 figures; the rest were not measured");
  EXPECT_EQ(bench_verdict(document("bench-sigterm.json"), SIGINT).exit_code, 130);
}

TEST(BenchExitPolicy, AFailedVerificationIsOneAndAnErrorFour) {
  BenchDocument doc = document("bench-logical8.json");
  ASSERT_FALSE(doc.bandwidth.empty());
  doc.bandwidth.back().status = "error";
  EXPECT_EQ(bench_verdict(doc, 0).exit_code, 4);
  doc.bandwidth.front().status = "failed";
  EXPECT_EQ(bench_verdict(doc, 0).exit_code,
            1);  // a wrong result outranks a case that could not run
  const auto v = bench_verdict(doc, 0);
  EXPECT_EQ(v.summary.at("failed"), 1);
  EXPECT_EQ(v.summary.at("errors"), 1);
}

TEST(BenchExitPolicy, SharingIsInTheSummary) {
  BenchDocument doc = document("bench-logical8.json");
  doc.gpu_sharing = p2p::bench::SharingRecord{};
  doc.gpu_sharing->shared = true;
  EXPECT_EQ(bench_verdict(doc, 0).summary.at("gpu_shared"), true);
  EXPECT_EQ(bench_verdict(doc, 0).exit_code, 0);  // shared GPUs are a warning, not a verdict
}

TEST(NcclExitPolicy, KeptRunsEndAsTheyDidOnTheH200) {
  EXPECT_EQ(nccl_exit("nccl-ranks8.json"), 0);                  // nccl-ranks8.txt: exit 0
  EXPECT_EQ(nccl_exit("nccl-killed-rank.json"), 4);             // a rank process died: exit 4
  EXPECT_EQ(nccl_exit("nccl-stalled-rank.json"), 5);            // a rank stalled: exit 5
  EXPECT_EQ(nccl_exit("nccl-stalled-rank.json", SIGINT), 130);  // a signal wins over a hang
}

TEST(NcclExitPolicy, WrongResultsAndMissedThresholdsAreOne) {
  const BenchDocument doc = document("nccl-ranks8.json");
  auto report = p2p::nccl::nccl_section_from_document(doc, "nccl-ranks8.json");
  ASSERT_FALSE(report.run.results.empty());
  EXPECT_EQ(nccl_verdict(report, doc, 0).summary.at("results"), report.run.results.size());

  auto wrong = report;
  wrong.run.results.front().status = "wrong";
  EXPECT_EQ(nccl_verdict(wrong, doc, 0).exit_code, 1);

  auto off_error = report;
  off_error.p2p_off = report.run;
  off_error.p2p_off->results.back().status = "error";
  EXPECT_EQ(nccl_verdict(off_error, doc, 0).exit_code, 1);  // the P2P-off sweep counts as much

  auto missed = report;
  p2p::nccl::BusbwVerdict v;
  v.status = "fail";
  missed.verdicts.push_back(v);
  EXPECT_EQ(nccl_verdict(missed, doc, 0).exit_code, 1);
}

TEST(NcclExitPolicy, AHangOutranksADeadRankAndAWrongResult) {
  const BenchDocument doc = document("nccl-killed-rank.json");
  auto report = p2p::nccl::nccl_section_from_document(doc, "nccl-killed-rank.json");
  report.run.results.front().status = "wrong";
  EXPECT_EQ(nccl_verdict(report, doc, 0).exit_code, 4);  // the run itself failed before any verdict
  report.run.results.back().status = "hang";
  EXPECT_EQ(nccl_verdict(report, doc, 0).exit_code, 5);
}

}  // namespace
