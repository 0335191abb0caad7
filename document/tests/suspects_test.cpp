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
  EXPECT_EQ(s->gpu, "gpu5");
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
            reason("d2h_ce gpu5->host 256MiB", Outcome::kFail, "27.8 GB/s is 44%; ...")});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->host_link, "27.6 GB/s is 44% of PCIe gen5 x16 (63.0 GB/s one way)");
  EXPECT_EQ(suspect_line(*s),
            "suspect: gpu5 in 3 of 3 reasons; its host link: 27.6 GB/s is 44% of PCIe gen5 x16 "
            "(63.0 GB/s one way): check the width and speed it trained at (p2pcheck doctor: "
            "pcie.link), then reseat it");
  const auto pairs_only =
      suspect_of(with({v.checks[0], reason("ce_unidir_write gpu1->gpu5 1GiB")}));
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
  const RunVerdict v = with(
      {reason("run", Outcome::kFail, "2 gpus lost, gpu alone, nvgpu3, gpu12x"),
       reason("run", Outcome::kFail, "gpu12 is slow"), reason("x", Outcome::kWarn, "again gpu12")});
  const auto s = suspect_of(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->gpu, "gpu12");
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

}  // namespace
}  // namespace p2p::doc
