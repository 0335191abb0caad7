// The suspect of a verdict: the GPU most of its reasons name.
#include "document/suspects.hpp"

#include <gtest/gtest.h>

namespace p2p::doc {
namespace {

Check reason(const std::string& subject, Outcome o = Outcome::kFail,
             const std::string& message = "") {
  return Check{"link_ceiling", subject, o, message, {}, {}, "", 10, "topology"};
}

RunVerdict with(std::vector<Check> checks) {
  RunVerdict v;
  v.checks = std::move(checks);
  return v;
}

std::vector<GpuOutcome> outcomes_of(const RunVerdict& v) { return gpu_outcomes(v, suspect_of(v)); }

TEST(Suspects, TheGpuEveryReasonNamesIsTheSuspect) {
  const RunVerdict v =
      with({reason("h2d_ce host->gpu5 64MiB"), reason("ce_unidir_write gpu5->gpu0"),
            reason("ce_unidir_write gpu1->gpu5"), reason("gpu0<->gpu5", Outcome::kWarn),
            reason("gpu2", Outcome::kPass)});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "gpu5");
  EXPECT_EQ(s->kind, SuspectKind::kGpu);
  EXPECT_EQ(s->named_in, 4);
  EXPECT_EQ(s->reasons, 4) << "a passing check is no reason";
  EXPECT_EQ(s->host_link, "") << "the host link reason has no message here";
  EXPECT_EQ(suspect_line(*s),
            "suspect: gpu5 in 4 of 4 reasons: look at it, its slot and its link first");
  EXPECT_EQ(format_verdict(v, "judge").rfind("suspect: gpu5 in 4 of 4 reasons", 0), 0u)
      << "the suspect heads the verdict";
}

// A suspect whose own copies to or from the host fall short points at its slot: the line says
// what the link reached and the next step. A short pair of GPUs alone does not.
TEST(Suspects, AShortHostLinkIsTheSuspectsEvidenceAndNamesTheNextStep) {
  const RunVerdict v =
      with({reason("ce_unidir_write gpu5->gpu0 256MiB", Outcome::kFail, "41 GB/s is 60% of NODE"),
            reason("h2d_ce host->gpu5 256MiB", Outcome::kFail,
                   "27.6 GB/s is 44% of PCIe gen5 x16 (63.0 GB/s one way); warn below 72%"),
            reason("d2h_ce gpu5->host 256MiB", Outcome::kFail, "27.8 GB/s is 44%; ..."),
            reason("ce_unidir_write gpu0->gpu1 256MiB", Outcome::kPass)});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->host_link, "27.6 GB/s is 44% of PCIe gen5 x16 (63.0 GB/s one way)");
  EXPECT_EQ(suspect_line(*s),
            "suspect: gpu5 in 3 of 3 reasons; its host link: 27.6 GB/s is 44% of PCIe gen5 x16 "
            "(63.0 GB/s one way): check the width and speed it trained at (p2pcheck doctor: "
            "pcie.link), then reseat it");
  const auto pairs_only =
      suspect_of(with({v.checks[0], reason("ce_unidir_write gpu1->gpu5 1GiB"), v.checks[3]}));
  ASSERT_TRUE(pairs_only);
  EXPECT_EQ(pairs_only->host_link, "");
}

TEST(Suspects, NoSuspectWhenReasonsAreFewSpreadOrTied) {
  EXPECT_FALSE(suspect_of(with({reason("h2d_ce host->gpu5 64MiB")}))) << "one reason";
  EXPECT_FALSE(suspect_of(with(
      {reason("gpu0->gpu1"), reason("gpu2->gpu3"), reason("gpu4->gpu6"), reason("gpu5->gpu7")})))
      << "spread over many GPUs";
  EXPECT_FALSE(suspect_of(with({reason("gpu0->gpu1"), reason("gpu1->gpu0")}))) << "a tie";
  EXPECT_FALSE(suspect_of(with({reason("run"), reason("figures")}))) << "no GPU named";
  EXPECT_EQ(
      format_verdict(with({reason("gpu0->gpu1"), reason("gpu2->gpu3")}), "judge").find("suspect:"),
      std::string::npos);
}

TEST(Suspects, OnlyWholeWordsNameAGpu) {
  // "gpus", "gpu" alone, "nvgpu3" and "gpu12x" name no GPU; "gpu12" in a message does.
  const RunVerdict v =
      with({reason("run", Outcome::kFail, "2 gpus lost, gpu alone, nvgpu3, gpu12x"),
            reason("run", Outcome::kFail, "gpu12 is slow"),
            reason("x", Outcome::kWarn, "again gpu12"), reason("gpu0", Outcome::kPass)});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "gpu12");
  EXPECT_EQ(s->named_in, 2);
}

// Each GPU's own pass or fail, as dcgmi diag gives it: a pair that names the suspect is the
// suspect's failure alone, so gpu0 and gpu1 pass beside a slot that trained at x8.
TEST(Suspects, EachGpuPassesOrFailsOnItsOwnChecks) {
  const RunVerdict v = with(
      {reason("h2d_ce host->gpu5 64MiB"), reason("ce_unidir_write gpu5->gpu0"),
       reason("ce_unidir_write gpu1->gpu5"), reason("ce_unidir_write gpu0->gpu1", Outcome::kPass),
       reason("gpu2", Outcome::kWarn), reason("gpu3", Outcome::kSkipped)});
  const auto gpus = outcomes_of(v);
  ASSERT_EQ(gpus.size(), 4u) << "a skipped check names no GPU's outcome";
  EXPECT_EQ(gpus[0].gpu, "gpu0");
  EXPECT_EQ(gpus[0].outcome, Outcome::kPass);
  EXPECT_EQ(gpus[0].checks, 2);
  EXPECT_EQ(gpus[2].outcome, Outcome::kWarn);
  EXPECT_EQ(gpus[3].gpu, "gpu5");
  EXPECT_EQ(gpus[3].outcome, Outcome::kFail);
  EXPECT_EQ(gpus[3].failed, 3);
  const std::string line = gpu_outcomes_line(gpus);
  EXPECT_EQ(line,
            "per GPU: gpu2 WARN (1 of 1 checks); gpu5 FAIL (3 of 3 checks); 2 pass (gpu0, gpu1)");
  EXPECT_NE(format_verdict(v, "judge").find("\n" + line + "\nreasons, most important first:"),
            std::string::npos)
      << format_verdict(v, "judge");
  // Without a suspect every GPU a failing check names fails; all passing says nothing.
  EXPECT_EQ(gpu_outcomes_line(outcomes_of(with({reason("gpu0->gpu1")}))),
            "per GPU: gpu0 FAIL (1 of 1 checks); gpu1 FAIL (1 of 1 checks)");
  EXPECT_EQ(gpu_outcomes_line(outcomes_of(with({reason("gpu0->gpu1", Outcome::kPass)}))), "");
  EXPECT_TRUE(outcomes_of(with({reason("gpu99999999999->gpu1")})).size() == 1u)
      << "a number no GPU has is no GPU";
}

// A one-GPU run (or eight ranks on one GPU) names its one GPU in every check: that singles
// nothing out, and no suspect is named however many reasons there are.
TEST(Suspects, TheOnlyGpuOfARunIsNoSuspect) {
  const RunVerdict one = with({reason("h2d_ce host->gpu0 64MiB"), reason("d2h_ce gpu0->host 64MiB"),
                               reason("gpu0", Outcome::kPass)});
  EXPECT_FALSE(suspect_of(one));
  EXPECT_EQ(format_verdict(one, "judge").find("suspect:"), std::string::npos);
  RunVerdict two = one;
  two.checks.push_back(reason("h2d_ce host->gpu1 64MiB", Outcome::kPass));
  ASSERT_TRUE(suspect_of(two)) << "beside a GPU that passes, the failing one stands out";
  EXPECT_EQ(suspect_of(two)->name, "gpu0");
}

Check placed(const std::string& subject, std::vector<std::string> places,
             Outcome o = Outcome::kFail) {
  Check c = reason(subject, o);
  c.places = std::move(places);
  return c;
}

// No GPU stands out, but every failing pair sits behind one PCIe switch: the switch is the
// suspect, with its GPUs and the step that fits a switch.
TEST(Suspects, TheSwitchWhoseGpusFailTogetherIsTheSuspect) {
  const std::string sw = "switch 0000:40:00.0";
  const RunVerdict v =
      with({placed("ce gpu0->gpu1 1GiB", {"path PIX", sw, "numa 0"}),
            placed("ce gpu1->gpu2 1GiB", {"path PIX", sw, "numa 0"}),
            placed("ce gpu2->gpu3 1GiB", {"path PIX", sw, "numa 0"}),
            placed("ce gpu3->gpu0 1GiB", {"path PIX", sw, "numa 0"}),
            placed("ce gpu4->gpu5 1GiB", {"path PIX", "switch 0000:c0:00.0", "numa 1"},
                   Outcome::kPass)});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, SuspectKind::kSwitch);
  EXPECT_EQ(s->name, "0000:40:00.0");
  EXPECT_EQ(s->gpus, (std::vector<std::string>{"gpu0", "gpu1", "gpu2", "gpu3"}));
  EXPECT_EQ(
      suspect_line(*s),
      "suspect: PCIe switch 0000:40:00.0 (gpu0, gpu1, gpu2, gpu3) in 4 of 4 reasons: the GPUs "
      "behind it fail together: check its uplink's width and speed and ACS on its ports "
      "(p2pcheck doctor: pcie.link, pcie.acs)");
  const auto j = suspects_json(v).at("suspect");
  EXPECT_EQ(j.at("kind"), "switch");
  EXPECT_TRUE(j.at("gpu").is_null());
  EXPECT_EQ(j.at("gpus").size(), 4u);
}

// Failing pairs spread over the GPUs and both NUMA nodes, all crossing the sockets: the path
// kind is the suspect. Where every judged pair is SYS, naming SYS singles nothing out.
TEST(Suspects, APathClassIsTheSuspectOnlyWhereOtherPathsPass) {
  RunVerdict v = with(
      {placed("ce gpu0->gpu4 1GiB", {"path SYS"}), placed("ce gpu1->gpu5 1GiB", {"path SYS"}),
       placed("ce gpu2->gpu6 1GiB", {"path SYS"}), placed("ce gpu3->gpu7 1GiB", {"path SYS"})});
  EXPECT_FALSE(suspect_of(v)) << "every pair judged is SYS";
  v.checks.push_back(placed("ce gpu0->gpu1 1GiB", {"path NODE", "numa 0"}, Outcome::kPass));
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, SuspectKind::kPath);
  EXPECT_EQ(s->label(), "the SYS paths");
  EXPECT_NE(suspect_line(*s).find("in 4 of 4 reasons: they cross between CPU sockets"),
            std::string::npos)
      << suspect_line(*s);
}

// A NUMA node whose pairs fail while the other node's pass.
TEST(Suspects, ANumaNodeWhoseGpusFailTogetherIsTheSuspect) {
  const RunVerdict v =
      with({placed("ce gpu4->gpu5 1GiB", {"path NODE", "numa 1"}),
            placed("ce gpu6->gpu7 1GiB", {"path NODE", "numa 1"}),
            placed("ce gpu5->gpu6 1GiB", {"path NODE", "numa 1"}),
            placed("ce gpu0->gpu1 1GiB", {"path NODE", "numa 0"}, Outcome::kPass)});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, SuspectKind::kNuma);
  EXPECT_EQ(s->label(), "NUMA node 1");
  EXPECT_EQ(s->gpus, (std::vector<std::string>{"gpu4", "gpu5", "gpu6", "gpu7"}));
}

// In a fleet, GPUs are numbered per host: the host comes first, and the fleet's checks give no
// per-GPU outcome.
TEST(Suspects, InAFleetTheHostComesFirstAndGpusAreNotPooled) {
  const RunVerdict v = with({placed("node07", {"host node07"}),
                             placed("bandwidth/ce gpu0->gpu1 1GiB", {"host node07"}),
                             placed("bandwidth/ce gpu2->gpu3 1GiB", {"host node07"}),
                             placed("node01", {"host node01"}, Outcome::kPass)});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, SuspectKind::kHost);
  EXPECT_EQ(suspect_line(*s),
            "suspect: host node07 in 3 of 3 reasons: look at that host's own verdict and doctor "
            "first (p2pcheck judge, p2pcheck doctor)");
  EXPECT_TRUE(gpu_outcomes(v, s).empty());
}

}  // namespace
}  // namespace p2p::doc
