// The layout of a bandwidth sample, decided before any GPU work: batch length, the fused SM
// pair, the untimed padding and the staged chunking.
#include "bench/measure/batch_plan.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "bench/measure/methods/staged_pipeline.hpp"
#include "bench/sizes.hpp"

namespace {

using namespace p2p::bench;

const Endpoint g0 = Endpoint::on_gpu(0), g1 = Endpoint::on_gpu(1), host = Endpoint::host();

TEST(BatchPlan, DefaultBatchFollowsTheSizeAndAnOptionOverridesIt) {
  const std::vector<Lane> one{{host, g0, 0, Method::kCopyEngine}};
  EXPECT_EQ(plan_batch(one, 4 * kMiB, 0, false).copies, copies_per_batch(4 * kMiB));
  EXPECT_EQ(plan_batch(one, 4 * kMiB, 3, false).copies, 3);
  EXPECT_THROW(plan_batch({}, 4 * kMiB, 0, false), std::invalid_argument);
}

TEST(BatchPlan, TwoSmLanesOfOneIssuerFuseAndAreNeverPadded) {
  const std::vector<Lane> same{{g0, g1, 0, Method::kSm}, {g1, g0, 0, Method::kSm}};
  const BatchPlan fused = plan_batch(same, 64 * kMiB, 8, true);
  EXPECT_TRUE(fused.fused_pair);
  EXPECT_FALSE(fused.padded);
  EXPECT_EQ(fused.lead_in_copies, 0);
  EXPECT_EQ(fused.tail_copies, 0);
  const std::vector<Lane> two_issuers{{g0, g1, 0, Method::kSm}, {g1, g0, 1, Method::kSm}};
  EXPECT_FALSE(plan_batch(two_issuers, 64 * kMiB, 8, true).fused_pair);
}

TEST(BatchPlan, EachLaneUnderLoadPadsBothEndsOfEveryLane) {
  const std::vector<Lane> bidir{{host, g0, 0, Method::kCopyEngine},
                                {g0, host, 0, Method::kCopyEngine}};
  const BatchPlan p = plan_batch(bidir, 64 * kMiB, 8, true);
  EXPECT_TRUE(p.padded);
  EXPECT_EQ(p.lead_in_copies, 2);  // a quarter of the batch
  EXPECT_EQ(p.tail_copies, 8);
  EXPECT_EQ(plan_batch(bidir, 64 * kMiB, 3, true).lead_in_copies, 1);  // at least one
  EXPECT_FALSE(plan_batch(bidir, 64 * kMiB, 8, false).padded);
  const std::vector<Lane> one{{host, g0, 0, Method::kCopyEngine}};
  EXPECT_FALSE(plan_batch(one, 64 * kMiB, 8, true).padded);
}

TEST(BatchPlan, StagedLanesCapTheBatchAtSixtyFourChunksAndAreNeverPadded) {
  const std::vector<Lane> staged{{g0, g1, 0, Method::kStaged}, {g1, g0, 1, Method::kStaged}};
  // 64 MiB: 16 chunks of 4 MiB a copy, so at most 4 copies a batch.
  const BatchPlan big = plan_batch(staged, 64 * kMiB, 10, true);
  EXPECT_EQ(big.copies, 4);
  EXPECT_FALSE(big.padded);
  // 1 GiB still cuts into 16 chunks (of 64 MiB): again 4 copies.
  EXPECT_EQ(plan_batch(staged, kGiB, 10, false).copies, 4);
  // 1 MiB is one chunk: the option's 10 copies fit.
  EXPECT_EQ(plan_batch(staged, kMiB, 10, false).copies, 10);
}

TEST(StagedLayout, ChunksAreRoundedUpTo256BytesAndSlotsNeverOutnumberTheBatch) {
  const StagedLayout odd = staged_layout((9ull << 20) + 20, 3);
  EXPECT_EQ(odd.chunks_per_copy, 3u);
  EXPECT_EQ(odd.chunk_bytes % 256, 0u);
  EXPECT_GE(odd.chunk_bytes * odd.chunks_per_copy, (9ull << 20) + 20);
  EXPECT_LT((odd.chunk_bytes) * (odd.chunks_per_copy - 1), (9ull << 20) + 20);
  EXPECT_EQ(odd.slots, kStagedSlots);
  const StagedLayout tiny = staged_layout(4096, 2);
  EXPECT_EQ(tiny.chunks_per_copy, 1u);
  EXPECT_EQ(tiny.chunk_bytes, 4096u);
  EXPECT_EQ(tiny.slots, 2u);
  const StagedLayout small_odd = staged_layout(100, 1);
  EXPECT_EQ(small_odd.chunk_bytes, 256u);
  EXPECT_EQ(small_odd.slots, 1u);
}

}  // namespace
