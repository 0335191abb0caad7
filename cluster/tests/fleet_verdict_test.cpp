// The fleet's one verdict over the unit fixture hosts (node-a and node-b healthy, node-c another
// topology, node-d slow on gpu0->gpu1, node-e stopped after its gate), and the cluster
// document that carries it, read back in both versions.
#include "cluster/fleet_verdict.hpp"

#include <gtest/gtest.h>

#include "cluster/tests/fixtures.hpp"
#include "common/error.hpp"
#include "document/cluster_document.hpp"
#include "document/suspects.hpp"

namespace p2p::cluster {
namespace {

using doc::Outcome;
using testing::host_fixture;

ClusterRun fleet_run() {
  return merge_hosts(
      {host_fixture("node-a.jsonl"), host_fixture("node-b.jsonl"), host_fixture("node-c.jsonl"),
       host_fixture("node-d.jsonl"), host_fixture("node-e.jsonl")},
      MergeOptions{});
}

const doc::Check& check_of(const doc::RunVerdict& v, const std::string& rule,
                           const std::string& subject) {
  for (const auto& c : v.checks) {
    if (c.rule == rule && c.subject == subject) return c;
  }
  throw std::runtime_error("no check " + rule + " " + subject);
}

TEST(FleetVerdict, EveryHostIsACheckAndTheOneWithoutAResultErrs) {
  const ClusterRun r = fleet_run();
  const doc::RunVerdict& v = r.verdict;
  EXPECT_EQ(v.judged_by, "merge");
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(r.exit_code(), 1);  // the missing host fails the fleet gate: exit 1, not 4
  EXPECT_EQ(check_of(v, "host", "node-a").outcome, Outcome::kPass);
  EXPECT_EQ(check_of(v, "host", "node-c").outcome, Outcome::kFail);
  EXPECT_EQ(check_of(v, "host", "node-d").outcome, Outcome::kFail);
  const doc::Check& gone = check_of(v, "host", "node-e");
  EXPECT_EQ(gone.outcome, Outcome::kError);
  EXPECT_EQ(gone.message.rfind("no result: stopped after step `gate`", 0), 0u) << gone.message;
  EXPECT_NE(check_of(v, "host", "node-c").message.find("topology differs from the reference in 28"),
            std::string::npos);
}

// Each host's check and each outlier carry the hosts they are about, for the suspect: here
// three hosts fail for three causes, so no one host is named, and gpu0 of node-d is no fleet-wide
// GPU.
TEST(FleetVerdict, ChecksNameTheirHostsAndThreeFailingHostsGiveNoSuspect) {
  const doc::RunVerdict v = fleet_run().verdict;
  EXPECT_EQ(check_of(v, "host", "node-c").places, std::vector<std::string>{"host node-c"});
  EXPECT_EQ(check_of(v, "outlier", "bandwidth/ce_unidir_write gpu0->gpu1 64MiB").places,
            (std::vector<std::string>{"fleet", "host node-d"}));
  EXPECT_FALSE(doc::suspect_of(v));
  EXPECT_TRUE(doc::gpu_outcomes(v, std::nullopt).empty());
}

TEST(FleetVerdict, ReasonsComeMostImportantFirst) {
  const auto reasons = fleet_run().verdict.reasons();
  std::vector<std::string> order;
  for (const auto& r : reasons) order.push_back(r.rule + " " + r.subject);
  EXPECT_EQ(order, (std::vector<std::string>{"fleet_gate fleet", "host node-d", "host node-c",
                                             "outlier bandwidth/ce_unidir_write gpu0->gpu1 64MiB",
                                             "host node-e"}));
  EXPECT_EQ(reasons[0].message,
            "node-c: pair classes differ from the majority (4 of 5 hosts); node-e: no result "
            "(last completed step: gate)");
}

TEST(FleetVerdict, AFigureFarWorseThanTheFleetFailsWithTheHostAndTheMedian) {
  const ClusterRun r = fleet_run();
  const doc::Check& c =
      check_of(r.verdict, "outlier", "bandwidth/ce_unidir_write gpu0->gpu1 64MiB");
  EXPECT_EQ(c.outcome, Outcome::kFail);
  EXPECT_NE(c.message.find("; far worse: node-d 41.81 GB/s ("), std::string::npos) << c.message;
  ASSERT_TRUE(c.value && c.expected);
  EXPECT_LT(*c.value, *c.expected);
  EXPECT_EQ(c.unit, "GB/s");
  EXPECT_EQ(r.verdict.count(Outcome::kPass), 2 + 4);  // node-a, node-b; the other four figures
}

TEST(FleetVerdict, AHealthyFleetPassesAndSaysWhatItCouldNotJudge) {
  const ClusterRun r =
      merge_hosts({host_fixture("node-a.jsonl"), host_fixture("node-b.jsonl")}, MergeOptions{});
  EXPECT_EQ(r.verdict.outcome, Outcome::kPass);
  EXPECT_EQ(r.exit_code(), 0);
  const doc::Check& unjudged = check_of(r.verdict, "outlier", "fleet");
  EXPECT_EQ(unjudged.outcome, Outcome::kSkipped);
  EXPECT_EQ(unjudged.message, "5 figure(s) measured on fewer than 3 hosts: not judged");
  EXPECT_EQ(doc::format_verdict(r.verdict, "merge"),
            "p2pcheck merge: PASS — 4 checks, 0 failed, 0 warnings\n");
}

TEST(FleetVerdict, AHostFarBetterThanTheFleetIsNamedButPasses) {
  ClusterRun run;
  doc::FigureSpread s;
  s.figure.case_name = "ce_unidir_read";
  s.key = "ce_unidir_read gpu0->gpu1 1GiB";
  s.hosts = 4;
  s.median = 50;
  s.judged = true;
  s.outliers = {doc::Deviation{"node-x", 80, 9.0, 60, false}};
  run.figures = {s};
  const doc::RunVerdict v = fleet_verdict(run, OutlierOptions{}, "cluster");
  EXPECT_EQ(v.outcome, Outcome::kPass);
  EXPECT_EQ(v.judged_by, "cluster");
  EXPECT_NE(v.checks.back().message.find("far better: node-x 80 GB/s (+60%, z 9)"),
            std::string::npos)
      << v.checks.back().message;
}

// JSON lines kept from the H200 (nccl --mpi, one file per rank; nccl stopped by SIGTERM) still
// read as hosts: the MPI ranks ended well, the stopped runs fail with their exit code.
TEST(FleetVerdict, KeptRunsLinesStillRead) {
  const std::string kept = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-fleet/";
  std::vector<HostRun> ranks;
  for (int r = 0; r < 4; ++r)
    ranks.push_back(
        read_host_lines_file(kept + "mpi-nccl/nccl-mpi.rank" + std::to_string(r) + ".jsonl"));
  const ClusterRun mpi = merge_hosts(ranks, MergeOptions{});
  EXPECT_EQ(mpi.verdict.outcome, Outcome::kPass) << doc::format_verdict(mpi.verdict, "merge");
  EXPECT_EQ(mpi.hosts.size(), 4u);

  const ClusterRun stopped =
      merge_hosts({read_host_lines_file(kept + "shared-gpu-rerun/nccl-sigterm.jsonl")}, {});
  EXPECT_EQ(stopped.exit_code(), 1);
  EXPECT_EQ(stopped.verdict.reasons().at(0).message, "its run ended with exit 143");
}

doc::ClusterDocument fleet_document() {
  doc::ClusterDocument d;
  d.written_by = "cluster";
  d.tool_version = "0.1.0";
  d.created_utc = "2026-12-03T12:00:00Z";
  d.ranks = 5;
  d.run = fleet_run();
  return d;
}

TEST(ClusterDocument, RoundTripsWithItsVerdict) {
  const nlohmann::json j = fleet_document();
  const auto back = j.get<doc::ClusterDocument>();
  EXPECT_TRUE(back.has_verdict);
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.run.hosts.at(0).status, doc::HostStatus::kNoResult);
  EXPECT_EQ(back.run.verdict.reasons().at(0).rule, "fleet_gate");
}

TEST(ClusterDocument, VersionOneStillReadsAndOtherVersionsAndWordsAreRefused) {
  nlohmann::json j = fleet_document();
  j.erase("verdict");
  j["version"] = 1;
  const auto old = j.get<doc::ClusterDocument>();
  EXPECT_FALSE(old.has_verdict);
  EXPECT_EQ(old.run.hosts.size(), 5u);
  EXPECT_EQ(old.run.figures.at(0).key, "ce_unidir_write gpu0->gpu1 64MiB");
  j["version"] = 3;
  EXPECT_THROW(j.get<doc::ClusterDocument>(), InputError);
  j = fleet_document();
  j["hosts"][0]["status"] = "missing";
  EXPECT_THROW(j.get<doc::ClusterDocument>(), InputError);
}

}  // namespace
}  // namespace p2p::cluster
