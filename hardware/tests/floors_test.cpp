#include "hardware/floors.hpp"

#include <gtest/gtest.h>

#include "hardware/tests/test_base.hpp"

namespace p2p::hw {
namespace {

TEST(Floors, BandwidthFloorsComeFromTheWidestPublishedRangeAndNameTheirRule) {
  const KnowledgeBase kb = testing::test_base();
  const auto floors = derived_floors(kb, *kb.model("pro-server"));
  // p2p_unidir NODE (two sources merged), p2p_unidir SYS, p2p latency, all_reduce; no staged.
  ASSERT_EQ(floors.size(), 4u);
  const DerivedFloor& node = floors[0];
  EXPECT_EQ(node.metric, "p2p_unidir");
  EXPECT_EQ(node.path, "NODE");
  EXPECT_DOUBLE_EQ(node.low, 53);
  EXPECT_DOUBLE_EQ(node.high, 57);
  EXPECT_DOUBLE_EQ(node.warn, 53 * kBandwidthWarnFraction);
  EXPECT_DOUBLE_EQ(node.fail, 53 * kBandwidthFailFraction);
  EXPECT_EQ(node.sources.size(), 2u);
  EXPECT_NE(node.rule.find("fail below 0.85x"), std::string::npos);
}

TEST(Floors, LatencyFloorsBoundFromAbove) {
  const KnowledgeBase kb = testing::test_base();
  const auto f = floor_for(kb, *kb.model("pro-server"), "p2p_latency_us", "NODE");
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->floor.higher_is_better);
  EXPECT_DOUBLE_EQ(f->floor.fail, 0.52 * kLatencyFailFactor);
  // A staged path (14 us) is far above it; a slow socket's 1 us is not.
  EXPECT_GT(14.0, f->floor.fail);
  EXPECT_LT(1.0, f->floor.fail);
}

TEST(Floors, AnUnplacedPairIsHeldToTheMostLenientClass) {
  const KnowledgeBase kb = testing::test_base();
  const auto f = floor_for(kb, *kb.model("pro-server"), "p2p_unidir", "");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->floor.path, "SYS");
  EXPECT_DOUBLE_EQ(f->floor.fail, 39 * kBandwidthFailFraction);
  EXPECT_NE(f->basis_note.find("not known"), std::string::npos);
  const auto node = floor_for(kb, *kb.model("pro-server"), "p2p_unidir", "NODE");
  ASSERT_TRUE(node);
  EXPECT_EQ(node->floor.path, "NODE");
}

TEST(Floors, AllReduceFloorsAreKeptPerGpuCount) {
  const KnowledgeBase kb = testing::test_base();
  const GpuModel& m = *kb.model("pro-server");
  EXPECT_TRUE(floor_for(kb, m, "allreduce_busbw", "", 8));
  EXPECT_FALSE(floor_for(kb, m, "allreduce_busbw", "", 4));  // no figure for 4: no floor
  EXPECT_FALSE(floor_for(kb, *kb.model("rtx-4090"), "p2p_unidir", ""));
}

TEST(Floors, StagedFiguresAreAReferenceNotAFloor) {
  const KnowledgeBase kb = testing::test_base();
  const auto s = staged_reference(kb, *kb.model("pro-server"), "staged_latency_us");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->low, 14);
  EXPECT_FALSE(staged_reference(kb, *kb.model("pro-server"), "staged_unidir"));
}

}  // namespace
}  // namespace p2p::hw
