#include "infer/plan.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "infer/plan_text.hpp"

namespace p2p::infer {
namespace {

ModelShape llama70b() { return model_shape_from_options(8192, 80, "bf16"); }

TEST(InferPlan, MessagesAreTokensTimesHiddenTimesElementBytes) {
  const InferPlan p = make_plan(llama70b(), {8, 2, 4, 4}, {32, 1, 256}, {2048, 512});
  EXPECT_EQ(p.tp_sizes, (std::vector<int>{2, 4, 8}));
  EXPECT_EQ(p.calls_per_step, 160);
  ASSERT_EQ(p.messages.size(), 5u);
  EXPECT_EQ(message_name(p.messages[0]), "decode_b1");
  EXPECT_EQ(p.messages[0].bytes, 16384u);  // 1 x 8192 x 2
  EXPECT_EQ(message_name(p.messages[2]), "decode_b256");
  EXPECT_EQ(p.messages[2].bytes, 256u * 8192u * 2u);
  EXPECT_EQ(message_name(p.messages[3]), "prefill_t512");
  EXPECT_EQ(p.messages[4].phase, Phase::kPrefill);
  EXPECT_EQ(p.messages[4].bytes, 2048u * 8192u * 2u);
  EXPECT_EQ(largest_message_bytes(p), 2048u * 8192u * 2u);
}

TEST(InferPlan, Float32DoublesTheMessage) {
  const InferPlan p = make_plan(model_shape_from_options(4096, 32, "float32"), {2}, {8}, {});
  EXPECT_EQ(p.messages.at(0).bytes, 8u * 4096u * 4u);
  EXPECT_EQ(p.calls_per_step, 64);
}

TEST(InferPlan, RejectsSizesThatMeanNothing) {
  EXPECT_THROW(make_plan(llama70b(), {1, 2}, {1}, {}), InputError);
  EXPECT_THROW(make_plan(llama70b(), {}, {1}, {}), InputError);
  EXPECT_THROW(make_plan(llama70b(), {2}, {0}, {}), InputError);
  EXPECT_THROW(make_plan(llama70b(), {2}, {}, {}), InputError);
  EXPECT_THROW(make_plan(llama70b(), {2}, {}, {(1u << 20) + 1}), InputError);
}

TEST(InferPlan, PhaseNamesRoundTrip) {
  EXPECT_EQ(parse_phase(to_string(Phase::kPrefill)), Phase::kPrefill);
  EXPECT_EQ(parse_phase(to_string(Phase::kDecode)), Phase::kDecode);
  EXPECT_THROW(parse_phase("train"), InputError);
}

// A group whose signature is wider than its column ran into the next one:
// "NV12 x1 + PXB x2 + PHB x3one NUMA node (0)".
TEST(InferPlanText, LongCellsKeepASpaceBeforeTheNextColumn) {
  GpuGroup narrow{{0, 1}, "NV12 x1", "NV12", {0}, true, 1, "one NUMA node (0), worst path NV12"};
  GpuGroup wide{
      {0, 1, 2, 4, 5, 6, 7, 8},           "NV12 x1 + PXB x2 + PHB x3", "PHB", {0}, true, 8,
      "one NUMA node (0), worst path PHB"};
  const std::string text = format_plan(make_plan(llama70b(), {2}, {1}, {}),
                                       {TpGroups{2, {narrow, wide}, ""}}, "a file", "");
  EXPECT_NE(text.find("  GPUs 0,1           NV12 x1               one NUMA node (0)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  GPUs 0-2,4-8       NV12 x1 + PXB x2 + PHB x3 one NUMA node (0), worst "
                      "path PHB (stands for 8 groups)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace p2p::infer
