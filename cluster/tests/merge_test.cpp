#include "cluster/merge.hpp"

#include <gtest/gtest.h>

#include "cluster/cluster_junit.hpp"
#include "cluster/cluster_text.hpp"
#include "cluster/tests/fixtures.hpp"
#include "document/cluster_document.hpp"

namespace p2p::cluster {
namespace {

using testing::host_fixture;

std::vector<HostRun> merge_fleet() {
  return {host_fixture("node-a.jsonl"), host_fixture("node-b.jsonl"), host_fixture("node-c.jsonl"),
          host_fixture("node-d.jsonl"), host_fixture("node-e.jsonl")};
}

const HostVerdict& host(const ClusterRun& r, const std::string& name) {
  for (const auto& v : r.hosts) {
    if (v.host == name) return v;
  }
  throw std::runtime_error("no host " + name);
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(Merge, EachHostGetsItsOwnVerdict) {
  const ClusterRun r = merge_hosts(merge_fleet(), MergeOptions{});
  ASSERT_EQ(r.hosts.size(), 5u);
  EXPECT_EQ(host(r, "node-a").status, doc::HostStatus::kPass);
  EXPECT_EQ(host(r, "node-b").status, doc::HostStatus::kPass);
  const HostVerdict& odd = host(r, "node-c");
  EXPECT_EQ(odd.status, doc::HostStatus::kFail);
  EXPECT_EQ(odd.topology.match, doc::TopologyMatch::kDiffers);
  ASSERT_FALSE(odd.reasons.empty());
  EXPECT_TRUE(contains(odd.reasons[0], "topology differs from the reference in 28 place(s)"))
      << odd.reasons[0];
  const HostVerdict& slow = host(r, "node-d");
  EXPECT_EQ(slow.status, doc::HostStatus::kFail);
  EXPECT_EQ(slow.outliers_worse, 1u);
  EXPECT_EQ(slow.figures_lost, 1u);
  const HostVerdict& gone = host(r, "node-e");
  EXPECT_EQ(gone.status, doc::HostStatus::kNoResult);
  EXPECT_EQ(gone.last_step, "gate");
  EXPECT_EQ(gone.figures_lost, 5u);  // every figure the others measured
  EXPECT_EQ(gone.notes.size(), 1u);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.exit_code(), 1);
}

TEST(Merge, HostsAreRankedByFiguresLost) {
  const ClusterRun r = merge_hosts(merge_fleet(), MergeOptions{});
  std::vector<std::string> order;
  for (const auto& v : r.hosts) order.push_back(v.host);
  EXPECT_EQ(order, (std::vector<std::string>{"node-e", "node-d", "node-a", "node-b", "node-c"}));
}

TEST(Merge, TheFleetGateNamesEveryHostThatBreaksIt) {
  const ClusterRun r = merge_hosts(merge_fleet(), MergeOptions{});
  EXPECT_FALSE(r.gate_passed);
  EXPECT_EQ(r.topology_reference, "majority (4 of 5 hosts)");
  ASSERT_EQ(r.gate_reasons.size(), 2u);
  EXPECT_EQ(r.gate_reasons[0], "node-c: pair classes differ from the majority (4 of 5 hosts)");
  EXPECT_EQ(r.gate_reasons[1], "node-e: no result (last completed step: gate)");
}

TEST(Merge, AHostWhoseOwnGateBlockedCarriesTheDoctorsRootCause) {
  auto hosts = merge_fleet();
  hosts.push_back(host_fixture("node-f-blocked.jsonl"));
  const ClusterRun r = merge_hosts(hosts, MergeOptions{});
  const HostVerdict& f = host(r, "node-f");
  EXPECT_EQ(f.status, doc::HostStatus::kFail);
  EXPECT_EQ(f.root_cause, "GSP firmware missing: the driver cannot start the GPUs");
  EXPECT_EQ(f.doctor_state, "broken");
  ASSERT_TRUE(f.gate_passed);
  EXPECT_FALSE(*f.gate_passed);
  bool named_block = false;
  for (const auto& why : f.reasons) named_block |= contains(why, "gate blocked: GPU0-GPU1 is SYS");
  EXPECT_TRUE(named_block);
  bool in_gate = false;
  for (const auto& why : r.gate_reasons) in_gate |= why == "node-f: its own gate blocked";
  EXPECT_TRUE(in_gate);
}

TEST(Merge, AHealthyFleetPasses) {
  const ClusterRun r =
      merge_hosts({host_fixture("node-a.jsonl"), host_fixture("node-b.jsonl")}, MergeOptions{});
  EXPECT_TRUE(r.gate_passed);
  EXPECT_TRUE(r.passed) << (r.gate_reasons.empty() ? "" : r.gate_reasons[0]);
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_FALSE(r.figures.empty());
  for (const auto& s : r.figures) EXPECT_FALSE(s.judged);  // two hosts: nothing to call odd
}

// node-b's run as it ends when another process used a GPU meanwhile: its run_end line's verdict
// carries the caveat (as node and bench write it).
HostRun shared_host() {
  HostRun b = host_fixture("node-b.jsonl");
  add_host_line(b,
                R"({"schema":"p2pcheck.jsonl","version":1,"command":"node","host":"node-b",)"
                R"("utc":"2026-12-03T12:00:00Z","kind":"run_end","record":{"exit_code":1,)"
                R"("verdict":{"headline":"FAIL","outcome":"fail","reasons":[],"caveats":)"
                R"([{"kind":"shared","detail":"pid 4242 (python3) on gpu0"}]}}})",
                99);
  return b;
}

TEST(Merge, AHostCaveatFailsTheHostUnlessAllowed) {
  const ClusterRun r = merge_hosts({host_fixture("node-a.jsonl"), shared_host()}, MergeOptions{});
  const HostVerdict& b = host(r, "node-b");
  EXPECT_EQ(b.status, doc::HostStatus::kFail);
  ASSERT_EQ(b.caveats.size(), 1u);
  EXPECT_EQ(b.caveats[0].kind, doc::CaveatKind::kShared);
  ASSERT_FALSE(b.reasons.empty());
  EXPECT_EQ(b.reasons.back(),
            "its run is shared (pid 4242 (python3) on gpu0): it cannot pass as a whole run "
            "(--allow-caveat shared accepts it)");
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_TRUE(r.verdict.has_caveat(doc::CaveatKind::kShared));
  EXPECT_EQ(doc::caveats_line(r.verdict.caveats), "shared (node-b: pid 4242 (python3) on gpu0)");

  MergeOptions allow;
  allow.allowed_caveats = {doc::CaveatKind::kShared};
  // Accepted, the caveat no longer fails the host (its steps all passed), and still shows.
  const ClusterRun a = merge_hosts({host_fixture("node-a.jsonl"), shared_host()}, allow);
  EXPECT_EQ(host(a, "node-b").status, doc::HostStatus::kPass);
  EXPECT_EQ(a.exit_code(), 0);
  EXPECT_EQ(doc::headline(a.verdict), "PASS with warnings");
  EXPECT_TRUE(a.verdict.has_caveat(doc::CaveatKind::kShared));
}

TEST(Merge, NothingToMergeFails) {
  const ClusterRun r = merge_hosts({}, MergeOptions{});
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.gate_reasons.size(), 1u);
  EXPECT_EQ(r.gate_reasons[0], "no host records to merge");
}

TEST(ClusterDocument, CarriesEveryHostFigureAndAnEmptyNcclSection) {
  const ClusterRun r = merge_hosts(merge_fleet(), MergeOptions{});
  doc::ClusterDocument d;
  d.written_by = "merge";
  d.tool_version = "0.1.0";
  d.created_utc = "2026-12-03T12:00:00Z";
  d.run = r;
  const nlohmann::json j = d;
  EXPECT_EQ(j.at("schema"), "p2pcheck.cluster.run");
  EXPECT_EQ(j.at("version"), 2);
  EXPECT_EQ(j.at("verdict").at("headline"), "FAIL");
  EXPECT_EQ(j.at("passed"), false);
  EXPECT_EQ(j.at("exit_code"), 1);
  EXPECT_TRUE(j.at("nccl").is_null());
  EXPECT_EQ(j.at("outlier_rule").at("threshold"), 3.5);
  ASSERT_EQ(j.at("hosts").size(), 5u);
  EXPECT_EQ(j.at("hosts")[0].at("host"), "node-e");
  EXPECT_EQ(j.at("hosts")[0].at("status"), "no_result");
  EXPECT_TRUE(j.at("hosts")[0].at("exit_code").is_null());
  EXPECT_EQ(j.at("hosts")[0].at("last_step"), "gate");
  ASSERT_EQ(j.at("figures").size(), 5u);
  const auto& slow = j.at("figures")[0];
  EXPECT_EQ(slow.at("case"), "ce_unidir_write");
  EXPECT_EQ(slow.at("bytes"), 64 << 20);
  EXPECT_EQ(slow.at("unit"), "GB/s");
  ASSERT_EQ(slow.at("outliers").size(), 1u);
  EXPECT_EQ(slow.at("outliers")[0].at("host"), "node-d");
  EXPECT_TRUE(j.at("figures")[4].at("bytes").is_null());  // latency has no size
}

TEST(ClusterText, RanksHostsAndNamesTheMissingOneWithItsLastStep) {
  auto hosts = merge_fleet();
  hosts.push_back(host_fixture("node-f-blocked.jsonl"));
  const ClusterRun r = merge_hosts(hosts, MergeOptions{});
  const std::string text = format_cluster_text(r, OutlierOptions{}, "merge");
  EXPECT_TRUE(contains(text, "Cluster: 6 host(s): 2 pass, 3 fail, 1 without a result")) << text;
  EXPECT_TRUE(contains(text, "node-e  NO RESULT")) << text;
  EXPECT_TRUE(contains(text, "no result: stopped after step `gate`")) << text;
  EXPECT_TRUE(contains(text, "doctor (broken): GSP firmware missing")) << text;
  EXPECT_TRUE(contains(text, "node-c: 28 difference(s)")) << text;
  EXPECT_TRUE(contains(text, "... and 24 more")) << text;
  EXPECT_TRUE(contains(text, "bandwidth ce_unidir_write gpu0->gpu1 64MiB: node-d 41.81 GB/s"))
      << text;
  // The verdict block ends it: the reasons, then one line with the first.
  EXPECT_TRUE(contains(text, "reasons, most important first:\n  FAIL  fleet_gate fleet: ")) << text;
  EXPECT_EQ(text.substr(text.rfind("p2pcheck merge:")),
            "p2pcheck merge: FAIL — fleet_gate fleet: node-c: pair classes differ from the "
            "majority (5 of 6 hosts); node-e: no result (last completed step: gate); node-f: its "
            "own gate blocked\n");
  EXPECT_LT(text.find("node-e  NO RESULT"), text.find("node-d"));  // most figures lost first
}

TEST(ClusterJunit, OneCasePerHostAndJudgedFigure) {
  const ClusterRun r = merge_hosts(merge_fleet(), MergeOptions{});
  const report::CheckSuite s = cluster_suite(r, "2026-12-03T12:00:00Z");
  ASSERT_EQ(s.cases.size(), 1u + 5u + 5u);
  EXPECT_EQ(s.cases[0].name, "fleet/gate");
  EXPECT_EQ(s.cases[0].outcome, doc::Outcome::kFail);
  EXPECT_EQ(s.cases[1].name, "fleet/host/node-e");
  EXPECT_EQ(s.cases[1].outcome, doc::Outcome::kError);
  EXPECT_EQ(s.cases[6].name, "fleet/bandwidth/ce_unidir_write gpu0->gpu1 64MiB");
  EXPECT_EQ(s.cases[6].outcome, doc::Outcome::kFail);
  EXPECT_TRUE(contains(s.cases[6].message, "node-d")) << s.cases[6].message;
  EXPECT_EQ(s.cases[7].outcome, doc::Outcome::kPass);
}

}  // namespace
}  // namespace p2p::cluster

namespace p2p::cluster {
namespace {

TEST(Merge, RecordsOfOneHostNameStayApart) {
  HostRun a = testing::host_fixture("node-a.jsonl");
  HostRun again = a;
  again.source = "rank 1";
  const ClusterRun r = merge_hosts({a, again}, MergeOptions{});
  ASSERT_EQ(r.hosts.size(), 2u);
  EXPECT_NE(r.hosts[0].host, r.hosts[1].host);
  EXPECT_EQ(r.hosts[1].host, "node-a (rank 1)");
}

}  // namespace
}  // namespace p2p::cluster
