#include "infer/plan.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

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

}  // namespace
}  // namespace p2p::infer
