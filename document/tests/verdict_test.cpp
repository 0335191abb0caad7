#include "document/verdict.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/exit_codes.hpp"

namespace p2p::doc {
namespace {

Check check(const std::string& rule, Outcome o, int priority = 100) {
  Check c;
  c.rule = rule;
  c.subject = "gpu0";
  c.outcome = o;
  c.message = rule + " said so";
  c.priority = priority;
  return c;
}

TEST(RunVerdict, TheWorstCheckDecidesAndSkippedItemsNeverDo) {
  RunVerdict v;
  add_check(v, check("a", Outcome::kPass));
  add_check(v, check("b", Outcome::kSkipped));
  add_check(v, check("c", Outcome::kNotMeaningful));
  EXPECT_EQ(v.outcome, Outcome::kPass);
  add_check(v, check("d", Outcome::kWarn));
  EXPECT_EQ(v.outcome, Outcome::kWarn);
  EXPECT_EQ(exit_code(v), kExitOk);
  add_check(v, check("e", Outcome::kFail));
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(exit_code(v), kExitFailed);
}

TEST(RunVerdict, ReasonsAreMostImportantFirst) {
  RunVerdict v;
  add_check(v, check("warned", Outcome::kWarn, 1));
  add_check(v, check("late_fail", Outcome::kFail, 50));
  add_check(v, check("early_fail", Outcome::kFail, 10));
  add_check(v, check("passed", Outcome::kPass, 0));
  add_check(v, check("error", Outcome::kError, 0));
  const auto reasons = v.reasons();
  ASSERT_EQ(reasons.size(), 4u);
  EXPECT_EQ(reasons[0].rule, "early_fail");
  EXPECT_EQ(reasons[1].rule, "late_fail");
  EXPECT_EQ(reasons[2].rule, "error");
  EXPECT_EQ(reasons[3].rule, "warned");
}

TEST(RunVerdict, ExitPolicyOrdersSignalHangFailureError) {
  RunVerdict v;
  add_check(v, check("broken", Outcome::kError));
  EXPECT_EQ(exit_code(v), kExitRuntime);
  add_check(v, check("bad", Outcome::kFail));
  EXPECT_EQ(exit_code(v), kExitFailed);
  v.hung = true;
  EXPECT_EQ(exit_code(v), kExitHang);
  v.interrupt_signal = 15;
  EXPECT_EQ(exit_code(v), 128 + 15);
}

TEST(RunVerdict, TheLastLineSaysPassOrFailWithTheFirstReason) {
  RunVerdict v;
  add_check(v, check("fine", Outcome::kPass));
  EXPECT_EQ(format_verdict(v, "bench"), "p2pcheck bench: PASS — 1 checks, 0 failed, 0 warnings\n");
  add_check(v, check("shared", Outcome::kFail, 1));
  add_caveat(v, CaveatKind::kShared, "pid 4242 on gpu0");
  const std::string text = format_verdict(v, "bench");
  EXPECT_NE(text.find("  FAIL  shared gpu0: shared said so\n"), std::string::npos) << text;
  EXPECT_NE(text.find("caveats: shared (pid 4242 on gpu0)\n"), std::string::npos) << text;
  const std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
  EXPECT_EQ(last, "p2pcheck bench: FAIL — shared gpu0: shared said so [caveats: shared]\n")
      << "the caveats' kinds end the last line: a log that keeps only it still sees them";
}

TEST(RunVerdict, ManyReasonsAreCutWithACount) {
  RunVerdict v;
  for (int i = 0; i < 5; ++i) add_check(v, check("r" + std::to_string(i), Outcome::kFail));
  const std::string text = format_verdict(v, "compare", 2);
  EXPECT_NE(text.find("... and 3 more"), std::string::npos) << text;
}

TEST(RunVerdict, ACaveatKindIsKeptOnceWithEveryDetail) {
  RunVerdict v;
  add_caveat(v, CaveatKind::kWaived, "3 figures");
  add_caveat(v, CaveatKind::kWaived, "gate check pending");
  add_caveat(v, CaveatKind::kWaived, "3 figures");
  ASSERT_EQ(v.caveats.size(), 1u);
  EXPECT_EQ(v.caveats[0].detail, "3 figures; gate check pending");
  EXPECT_TRUE(v.has_caveat(CaveatKind::kWaived));
  EXPECT_FALSE(v.has_caveat(CaveatKind::kShared));
}

TEST(RunVerdict, JsonRoundTripsAndRefusesAnotherVersion) {
  RunVerdict v;
  v.judged_by = "bench";
  v.policy = "defaults";
  Check c = check("link_ceiling", Outcome::kWarn);
  c.value = 40.5;
  c.expected = 45.4;
  c.unit = "GB/s";
  add_check(v, c);
  add_caveat(v, CaveatKind::kInterrupted, "SIGTERM after 12 figures");
  v.interrupt_signal = 15;
  const nlohmann::json j = v;
  EXPECT_EQ(j.at("schema"), "p2pcheck.verdict");
  EXPECT_EQ(j.at("outcome"), "warn");
  EXPECT_EQ(j.at("headline"), "PASS with warnings");
  EXPECT_EQ(j.at("counts").at("warn"), 1);
  EXPECT_EQ(j.at("reasons").size(), 1u);
  const auto back = j.get<RunVerdict>();
  EXPECT_EQ(back.outcome, Outcome::kWarn);
  EXPECT_EQ(back.interrupt_signal, 15);
  ASSERT_EQ(back.checks.size(), 1u);
  EXPECT_EQ(*back.checks[0].expected, 45.4);
  EXPECT_EQ(back.caveats[0].kind, CaveatKind::kInterrupted);
  nlohmann::json other = j;
  other["version"] = 2;
  EXPECT_THROW(other.get<RunVerdict>(), InputError);
  other = j;
  other["caveats"][0]["kind"] = "cosmic_rays";
  EXPECT_THROW(other.get<RunVerdict>(), InputError);
}

}  // namespace
}  // namespace p2p::doc
