#include <gtest/gtest.h>

#include "common/error.hpp"
#include "infer/budget.hpp"
#include "infer/ranking.hpp"

namespace p2p::infer {
namespace {

InferPlan plan() {
  return make_plan(model_shape_from_options(8192, 80, "bf16"), {2, 4, 8}, {1, 32}, {2048});
}

// A group whose every message took `p50_us` per call (P2P on) and `off_us` with P2P off.
GroupResult group(int tp, std::vector<int> gpus, double p50_us,
                  std::optional<double> off_us = std::nullopt) {
  const InferPlan p = plan();
  GroupResult g;
  g.tp = tp;
  g.gpus = std::move(gpus);
  for (const Message& m : p.messages)
    g.p2p_on.messages.push_back(measured_message(m, tp, p.calls_per_step, {p50_us}));
  if (off_us) {
    g.p2p_off = GroupRun{};
    g.p2p_off->p2p_disabled = true;
    for (const Message& m : p.messages)
      g.p2p_off->messages.push_back(measured_message(m, tp, p.calls_per_step, {*off_us}));
  }
  return g;
}

TEST(RankingMessage, LargestDecodeBatchUnlessAsked) {
  EXPECT_EQ(ranking_message(plan(), std::nullopt), "decode_b32");
  EXPECT_EQ(ranking_message(plan(), 1), "decode_b1");
  EXPECT_THROW(ranking_message(plan(), 8), InputError);
  const InferPlan prefill_only =
      make_plan(model_shape_from_options(64, 2, "bf16"), {2}, {}, {512, 128});
  EXPECT_EQ(ranking_message(prefill_only, std::nullopt), "prefill_t512");
}

TEST(RankGroups, CheapestFirstUnmeasuredLastNoteWhereNone) {
  std::vector<GroupResult> groups = {group(4, {0, 1, 4, 5}, 0.38),
                                     group(4, {0, 1, 2, 3}, 0.24, 0.5), group(2, {0, 1}, 0.1)};
  GroupResult broken = group(4, {0, 1, 2, 4}, 0.1);
  for (auto& m : broken.p2p_on.messages) {
    m.status = doc::MessageStatus::kHang;
    m.step_us.reset();
  }
  groups.push_back(broken);
  const auto r = rank_groups(plan(), groups, "decode_b32", 4);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].tp, 2);
  ASSERT_EQ(r[1].groups.size(), 3u);
  EXPECT_EQ(r[1].groups[0].group, 1u);
  EXPECT_DOUBLE_EQ(*r[1].groups[0].step_us, 160 * 0.24);
  EXPECT_DOUBLE_EQ(*r[1].groups[0].p2p_off_step_us, 160 * 0.5);
  EXPECT_EQ(r[1].groups[1].group, 0u);
  EXPECT_EQ(r[1].groups[2].group, 3u);
  EXPECT_FALSE(r[1].groups[2].step_us.has_value());
  EXPECT_EQ(recommended(r[1])->group, 1u);
  EXPECT_TRUE(r[2].groups.empty());
  EXPECT_EQ(r[2].note, "needs 8 GPUs, 4 usable");
  EXPECT_FALSE(recommended(r[2]).has_value());
}

TEST(ParseBudget, OneFigurePerBatchOrForAll) {
  const Budget b = parse_budget("60,1:20", plan());
  EXPECT_DOUBLE_EQ(*budget_for(b, 1), 20);
  EXPECT_DOUBLE_EQ(*budget_for(b, 32), 60);
  EXPECT_FALSE(budget_for(parse_budget("1:20", plan()), 32).has_value());
  for (const char* bad :
       {"", "0", "-3", "abc", "20,30", "8:20", "1:", "1:x", ":5", "-1:5", "1:inf"}) {
    EXPECT_THROW(parse_budget(bad, plan()), InputError) << bad;
  }
}

TEST(JudgeBudget, TheRecommendedGroupOfEverySizeMustMeetIt) {
  const std::vector<GroupResult> groups = {group(2, {0, 1}, 0.2), group(4, {0, 1, 2, 3}, 0.3),
                                           group(4, {0, 4, 1, 5}, 0.1)};
  const auto rankings = rank_groups(plan(), groups, "decode_b32", 4);
  // Per token: TP=2 32 us, TP=4 best 16 us; TP=8 has no group.
  const auto v = judge_budget(parse_budget("20", plan()), plan(), rankings, groups);
  ASSERT_EQ(v.size(), 6u);  // 3 TP sizes x 2 decode batches (prefill is not budgeted)
  EXPECT_FALSE(v[0].pass);
  EXPECT_EQ(v[0].detail, "32.0 us > 20.0 us");
  EXPECT_TRUE(v[2].pass);
  EXPECT_EQ(v[2].gpus, (std::vector<int>{0, 4, 1, 5}));
  EXPECT_FALSE(v[4].pass);
  EXPECT_EQ(v[4].detail, "no group measured: needs 8 GPUs, 4 usable");
  EXPECT_TRUE(any_failed(v));
  const auto loose = judge_budget(
      parse_budget("40", plan()), make_plan(plan().model, {2, 4}, {1, 32}, {}),
      rank_groups(make_plan(plan().model, {2, 4}, {1, 32}, {}), groups, "decode_b32", 4), groups);
  EXPECT_FALSE(any_failed(loose));
}

}  // namespace
}  // namespace p2p::infer
