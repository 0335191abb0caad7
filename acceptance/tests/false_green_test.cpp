// Each false green of the acceptance audit, on a document kept from a real run on the H200
// (results/), edited only as each test says. Before the judge existed every one of them exited
// 0 with no reason; each must now fail, with its reason first.
#include <gtest/gtest.h>

#include <csignal>

#include "acceptance/judge.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;

doc::BenchDocument kept(const std::string& path) {
  return doc::read_bench_document_file(std::string(P2P_SOURCE_DIR) + "/results/" + path);
}

doc::RunVerdict judge_run(const doc::BenchDocument& d, int signal = 0) {
  RunFacts facts;
  facts.interrupt_signal = signal;
  return judge_document(d, AcceptancePolicy{}, facts, "bench");
}

const char* kH200Default = "h200-vm-2026-12-03-speed/bench-default.json";

TEST(FalseGreen, TheH200MainJobStillPasses) {
  const doc::RunVerdict v = judge_run(kept(kH200Default));
  EXPECT_EQ(v.outcome, Outcome::kPass) << format_verdict(v, "bench");
  EXPECT_EQ(doc::exit_code(v), kExitOk);
  EXPECT_GT(v.count(Outcome::kPass), 5);
}

TEST(FalseGreen, ARunCutShortBySigtermFailsAsInterrupted) {
  const doc::RunVerdict v =
      judge_run(kept("h200-vm-2026-12-03-one-gpu/bench-sigterm.json"), SIGTERM);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.reasons().front().rule, "interrupted");
  EXPECT_NE(v.reasons().front().message.find("SIGTERM after 420 figures"), std::string::npos);
  EXPECT_TRUE(v.has_caveat(doc::CaveatKind::kInterrupted));
  EXPECT_EQ(doc::exit_code(v), 128 + SIGTERM);
}

TEST(FalseGreen, ABenchThatSharedItsGpuFailsAsSharedAndItsSlowLinkFailsToo) {
  // Run B of the shared-GPU experiment: another bench held the GPU; its host-to-GPU copies ran
  // at 24.8 GB/s, 39% of the Gen5 x16 link. It printed "0 FAILED" and exited 0.
  const doc::RunVerdict v =
      judge_run(kept("h200-vm-2026-12-03-fleet/shared-gpu-rerun/bench-B.json"));
  EXPECT_EQ(v.outcome, Outcome::kFail);
  const auto reasons = v.reasons();
  ASSERT_GE(reasons.size(), 2u);
  EXPECT_EQ(reasons[0].rule, "shared");
  EXPECT_NE(reasons[0].message.find("pid 2061 (p2pcheck"), std::string::npos) << reasons[0].message;
  bool slow_link = false;
  for (const auto& r : reasons)
    slow_link |= r.rule == "link_ceiling" && r.outcome == Outcome::kFail &&
                 r.subject == "h2d_ce host->gpu0 64MiB";
  EXPECT_TRUE(slow_link) << format_verdict(v, "bench");
  EXPECT_TRUE(v.has_caveat(doc::CaveatKind::kShared));
}

TEST(FalseGreen, AHostLinkAtFortyPercentOfItsCeilingFailsWithoutAnyBaseline) {
  doc::BenchDocument d = kept(kH200Default);
  for (auto& r : d.bandwidth)  // edited: the host-to-GPU figures lowered to 40% of Gen5 x16
    if (r.case_name == "h2d_ce" && r.median_gbps) r.median_gbps = 0.40 * 63.015;
  const doc::RunVerdict v = judge_run(d);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.reasons().front().rule, "link_ceiling");
  EXPECT_NE(v.reasons().front().message.find("40% of PCIe gen5 x16"), std::string::npos);
}

// A policy whose min_judged_bytes is above every copy of the run judged none of its bandwidth.
TEST(FalseGreen, APolicyThatJudgesNoCopySizeFailsInsteadOfPassing) {
  const AcceptancePolicy policy = acceptance_from_json(
      nlohmann::json::parse(R"({"thresholds": {"min_judged_bytes": "64GiB"}})"), "policy.json");
  const doc::RunVerdict v = judge_document(kept(kH200Default), policy, RunFacts{}, "bench");
  EXPECT_EQ(v.outcome, Outcome::kFail) << format_verdict(v, "bench");
  bool said = false;
  for (const auto& r : v.reasons())
    said |= r.rule == "figures" && r.subject == "bandwidth" &&
            r.message.find("below the policy's min_judged_bytes (64 GiB)") != std::string::npos;
  EXPECT_TRUE(said) << format_verdict(v, "bench");
}

TEST(FalseGreen, AnEightGpuServerThatShowsSevenFails) {
  doc::BenchDocument d = kept(kH200Default);
  // Edited: the PCI topology lists a second GPU that CUDA never showed (one fallen off the bus).
  topo::Gpu lost = d.topology->gpus.front();
  lost.pci_bus_id = "0000:00:07.0";
  d.topology->gpus.push_back(lost);
  const doc::RunVerdict v = judge_run(d);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.reasons().front().rule, "gpu_count");
  EXPECT_EQ(v.reasons().front().message,
            "CUDA showed 1 GPU(s), the PCI topology lists 2; not seen by CUDA: 0000:00:07.0");
}

TEST(FalseGreen, AnNcclRunWithAKilledRankEndsInAnErrorNamingTheRankFirst) {
  const doc::RunVerdict v = judge_run(kept("h200-vm-2026-12-03-one-gpu/nccl-killed-rank.json"));
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(doc::exit_code(v), kExitRuntime);
  const auto first = v.reasons().front();
  EXPECT_EQ(first.subject, "rank3");
  EXPECT_EQ(first.message.rfind("died: killed by signal 9", 0), 0u) << first.message;
  const std::string text = format_verdict(v, "nccl");
  EXPECT_EQ(text.find("warning"), std::string::npos) << text;
  EXPECT_NE(text.find("p2pcheck nccl: ERROR — rank_process rank3: died"), std::string::npos)
      << text;
}

TEST(FalseGreen, AStalledRankIsAHang) {
  const doc::RunVerdict v = judge_run(kept("h200-vm-2026-12-03-one-gpu/nccl-stalled-rank.json"));
  EXPECT_TRUE(v.hung);
  EXPECT_EQ(doc::exit_code(v), kExitHang);
}

TEST(FalseGreen, OneRankFiguresAreMarkedNotMeaningfulAndFailTheRun) {
  doc::BenchDocument d = kept("h200-vm-2026-12-03-fleet/side-by-side/default-nccl.json");
  mark_not_meaningful(d);
  int in_place = 0;
  for (const auto& r : d.nccl->run.results) {
    EXPECT_FALSE(r.not_meaningful.empty());
    if (r.in_place) {
      ++in_place;
      EXPECT_EQ(r.not_meaningful, "one rank, in place: no data moves at all");
    }
  }
  EXPECT_GT(in_place, 0);
  // Nothing judged is not a pass: every result is of one rank, so the run fails saying so (it
  // passed on its other checks, while compare failed it as "nothing was compared").
  const doc::RunVerdict v = judge_run(d);
  EXPECT_EQ(v.outcome, Outcome::kFail) << format_verdict(v, "nccl");
  EXPECT_EQ(v.count(Outcome::kNotMeaningful), 1);
  EXPECT_EQ(v.reasons().front().message,
            "no NCCL figure was judged: every result is of one rank (run on two or more GPUs to "
            "measure a link)");
}

TEST(FalseGreen, LogicalGpusPassWithTheirCaveatAndNoPeerVerdict) {
  doc::BenchDocument d = kept("h200-vm-2026-12-03-one-gpu/bench-logical8.json");
  mark_not_meaningful(d);
  const doc::RunVerdict v = judge_run(d);
  EXPECT_EQ(v.outcome, Outcome::kPass) << format_verdict(v, "bench");
  EXPECT_TRUE(v.has_caveat(doc::CaveatKind::kLogicalGpus));
  for (const auto& c : v.checks) {
    if (c.rule == "p2p_vs_staged" || c.rule == "p2p_latency") {
      EXPECT_EQ(c.outcome, Outcome::kNotMeaningful) << "no peer link to judge: " << c.message;
    }
  }
  int marked = 0;
  for (const auto& r : d.bandwidth) marked += !r.not_meaningful.empty();
  EXPECT_GT(marked, 0);
}

TEST(FalseGreen, RanksSharingOneGpuCarryTheLogicalCaveat) {
  const doc::RunVerdict v = judge_run(kept("h200-vm-2026-12-03-one-gpu/nccl-ranks8.json"));
  EXPECT_TRUE(v.has_caveat(doc::CaveatKind::kLogicalGpus)) << format_verdict(v, "nccl");
  EXPECT_EQ(v.outcome, Outcome::kPass);
}

}  // namespace
}  // namespace p2p::accept
