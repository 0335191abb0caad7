#include "acceptance/judge.hpp"

#include <gtest/gtest.h>

#include "acceptance/policy_file.hpp"
#include "acceptance/tests/synthetic_run.hpp"
#include "common/exit_codes.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;
using testing::find;
using testing::gpu;
using testing::healthy_eight_gpu_run;

doc::RunVerdict judge(const doc::BenchDocument& d, const nlohmann::json& policy = {}) {
  const AcceptancePolicy p = policy.is_null()
                                 ? AcceptancePolicy{}
                                 : policy_file_from_json(policy, "policy.json").acceptance;
  return judge_document(d, p, RunFacts{}, "bench");
}

// The checks of one rule with one outcome.
std::vector<doc::Check> checks(const doc::RunVerdict& v, const std::string& rule, Outcome o) {
  std::vector<doc::Check> out;
  for (const auto& c : v.checks)
    if (c.rule == rule && c.outcome == o) out.push_back(c);
  return out;
}

TEST(Judge, AHealthyEightGpuHostPassesEveryRule) {
  const doc::RunVerdict v = judge(healthy_eight_gpu_run());
  EXPECT_EQ(v.outcome, Outcome::kPass) << format_verdict(v, "bench");
  EXPECT_EQ(doc::exit_code(v), kExitOk);
  // Every rule had something to judge: a verdict that judged nothing must not look green.
  for (const char* rule :
       {"verification", "gpu_count", "link_ceiling", "p2p_vs_staged", "p2p_latency",
        "bidirectional", "direction_symmetry", "class_outlier", "latency_outlier", "stability"})
    EXPECT_FALSE(checks(v, rule, Outcome::kPass).empty()) << rule;
  // 56 ordered pairs, each judged against its staged path.
  EXPECT_EQ(checks(v, "p2p_vs_staged", Outcome::kPass).size(), 56u);
}

// A policy section for another model or host is said as a skipped check, never silently unused:
// a typo in a model name once judged under the defaults without a word.
TEST(Judge, PolicySectionsThatMatchNothingHereAreSaid) {
  const doc::RunVerdict v =
      judge(healthy_eight_gpu_run(), nlohmann::json::parse(R"({"models": {"RTX PRO 6000": {},
                                                                       "H2OO": {}},
                                                            "hosts": {"rtxpro6000-*": {},
                                                                      "gpu-node-*": {}}})"));
  EXPECT_EQ(v.outcome, Outcome::kPass);
  const auto unused = checks(v, "policy", Outcome::kSkipped);
  ASSERT_EQ(unused.size(), 2u);
  EXPECT_EQ(unused[0].subject, "models.H2OO");
  EXPECT_EQ(unused[0].message,
            "matches no GPU model of this run (10de:2bb5, NVIDIA RTX PRO 6000 Blackwell Server "
            "Edition): its settings were not used");
  EXPECT_EQ(unused[1].subject, "hosts.gpu-node-*");
  EXPECT_EQ(unused[1].message,
            "matches not this run's host (rtxpro6000-lxc): its settings were not used");
  EXPECT_NE(v.policy.find("models.RTX PRO 6000 + hosts.rtxpro6000-*"), std::string::npos)
      << v.policy;
}

TEST(Judge, APairWithP2PSlowerThanStagedFails) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  find(d, "ce_unidir_write", gpu(1), gpu(2))->median_gbps = 31.0;  // staged is 40.1
  const doc::RunVerdict v = judge(d);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  const auto failed = checks(v, "p2p_vs_staged", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].subject, "gpu1->gpu2");
  EXPECT_EQ(failed[0].message,
            "P2P 31.0 GB/s is 0.77x the same pair staged through host memory (40.1 GB/s); warn "
            "below 1.10x, fail below 0.90x");
}

TEST(Judge, AP2PPairWithTheLatencyOfAStagedPathFails) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  for (auto& l : d.latency)
    if (l.case_name == "latency_peer" && l.src == gpu(4) && l.dst == gpu(0)) l.median_ns = 14200;
  const doc::RunVerdict v = judge(d);
  const auto failed = checks(v, "p2p_latency", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].subject, "gpu4->gpu0");
  EXPECT_NE(failed[0].message.find("14.20 us, that of a path staged through the host"),
            std::string::npos)
      << failed[0].message;
}

TEST(Judge, AHostLinkFarBelowItsCeilingFailsAndNamesTheLink) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  find(d, "h2d_ce", "host", gpu(3))->median_gbps = 26.4;  // a Gen5 x16 slot trained at x8
  const doc::RunVerdict v = judge(d);
  const auto failed = checks(v, "link_ceiling", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].subject, "h2d_ce host->gpu3 256MiB");
  EXPECT_EQ(failed[0].message,
            "26.4 GB/s is 42% of PCIe gen5 x16 (63.0 GB/s one way); warn below 72%, fail below "
            "55%");
  // The same GPU is also the odd one out among its neighbours.
  EXPECT_FALSE(checks(v, "class_outlier", Outcome::kFail).empty());
}

TEST(Judge, CrossSocketPairsAreHeldToTheirOwnCeiling) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  // 30 GB/s is 48% of Gen5: fails within a socket, passes (with a warning) across sockets.
  find(d, "ce_unidir_write", gpu(0), gpu(5))->median_gbps = 30.0;
  const doc::RunVerdict v = judge(d);
  for (const auto& c : v.checks) {
    if (c.rule == "link_ceiling" && c.subject == "ce_unidir_write gpu0->gpu5 256MiB") {
      EXPECT_EQ(c.outcome, Outcome::kWarn) << c.message;
      EXPECT_NE(c.message.find("across sockets"), std::string::npos);
    }
  }
}

TEST(Judge, BothWaysNoBetterThanOneWayFails) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  find(d, "ce_bidir", gpu(2), gpu(3), "sum")->median_gbps = 57.0;  // one way is 54.8
  const doc::RunVerdict v = judge(d);
  const auto failed = checks(v, "bidirectional", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].subject, "ce_bidir gpu2->gpu3 sum 256MiB");
}

TEST(Judge, OneDirectionFarFromTheOtherFails) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  find(d, "ce_unidir_write", gpu(6), gpu(5))->median_gbps = 33.0;
  const doc::RunVerdict v = judge(d);
  const auto failed = checks(v, "direction_symmetry", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].subject, "ce_unidir_write gpu5<->gpu6");
  EXPECT_NE(failed[0].message.find("the slower is 0.60x the faster"), std::string::npos);
}

TEST(Judge, APairFarBelowTheOthersOfItsClassFailsEvenAboveEveryAbsoluteBound) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  // 37 GB/s is 59% of the link (the ceiling only warns) and not below staged (40.1), but the
  // other NODE pairs run at 54.8: the one bad slot the absolute rules miss.
  find(d, "ce_unidir_write", gpu(7), gpu(4))->median_gbps = 37.0;
  find(d, "ce_unidir_write", gpu(4), gpu(7))->median_gbps = 37.0;
  const doc::RunVerdict v = judge(d);
  const auto failed = checks(v, "class_outlier", Outcome::kFail);
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_NE(failed[0].message.find("the median of the 24 ce_unidir_write NODE pairs (54.8 GB/s)"),
            std::string::npos)
      << failed[0].message;
}

TEST(Judge, FewerGpusThanThePciTopologyListsFails) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  // gpu7 fell off the bus: CUDA does not show it, the PCI topology still does.
  d.gpus.pop_back();
  const doc::RunVerdict v = judge(d);
  const auto failed = checks(v, "gpu_count", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].message,
            "CUDA showed 7 GPU(s), the PCI topology lists 8; not seen by CUDA: 0000:e1:00.0");
  EXPECT_EQ(v.reasons().front().rule, "gpu_count");
}

TEST(Judge, GpusTheUserLeftOutOnPurposeAreNotMissing) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  d.gpus.resize(2);
  d.gpu_selection = "--gpus 0,1";
  EXPECT_TRUE(checks(judge(d), "gpu_count", Outcome::kFail).empty());
  RunFacts facts;
  facts.expect_gpus = 8;
  const doc::RunVerdict v = judge_document(d, AcceptancePolicy{}, facts, "bench");
  EXPECT_EQ(checks(v, "gpu_count", Outcome::kFail).size(), 1u);
}

TEST(Judge, TheReadmePolicyFloorFailsAFigureBelowIt) {
  const doc::RunVerdict v =
      judge(healthy_eight_gpu_run(), {{"max_path", "SYS"}, {"min_bandwidth", 50}});
  // Every cross-socket pair (45.2 GB/s) is below 50; within a socket and the host links pass.
  EXPECT_EQ(checks(v, "floor", Outcome::kFail).size(), 32u);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.policy.find("policy.json"), std::string::npos);
}

TEST(Judge, FloorsPerCaseAndPathClassAndPerModelOverrides) {
  const nlohmann::json policy = {
      {"floors", {{{"case", "ce_unidir_write"}, {"path", "SYS"}, {"min_gbps", 44}}}},
      {"models", {{"RTX PRO 6000", {{"floors", {{{"case", "latency_peer"}, {"max_us", 0.5}}}}}}}}};
  const doc::RunVerdict v = judge(healthy_eight_gpu_run(), policy);
  EXPECT_EQ(checks(v, "floor", Outcome::kPass).size(), 32u + 24u);  // SYS pairs, NODE latencies
  EXPECT_EQ(checks(v, "floor", Outcome::kFail).size(), 32u);        // SYS latencies, 0.62 us
  EXPECT_NE(v.policy.find("models.RTX PRO 6000"), std::string::npos) << v.policy;
}

TEST(Judge, ARuleSetToNullIsOff) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  find(d, "ce_bidir", gpu(2), gpu(3), "sum")->median_gbps = 57.0;
  const doc::RunVerdict v = judge(d, {{"thresholds", {{"bidirectional", nullptr}}}});
  EXPECT_TRUE(checks(v, "bidirectional", Outcome::kFail).empty());
  EXPECT_TRUE(checks(v, "bidirectional", Outcome::kPass).empty());
}

TEST(Judge, ADocumentWithoutFiguresIsNoPass) {
  const doc::RunVerdict v = judge(doc::BenchDocument{});
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.reasons().front().message, "the document holds no figure: nothing was measured");
}

TEST(Judge, SmallSweepsAreJudgedAtTheirPlateauOnly) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  doc::BandwidthResult small = *find(d, "h2d_ce", "host", gpu(0));
  small.bytes = 4096;
  small.median_gbps = 2.0;  // launch-bound: not a link figure
  d.bandwidth.push_back(small);
  EXPECT_EQ(judge(d).outcome, Outcome::kPass);
}

}  // namespace
}  // namespace p2p::accept
