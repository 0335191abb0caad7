#include "nccl/collective.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::nccl {
namespace {

TEST(BusFactor, MatchesNcclTestsFormulas) {
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllReduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllReduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllGather, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kReduceScatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllToAll, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kBroadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kSendRecvRing, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kSendRecvPair, 2), 1.0);
}

TEST(BusFactor, OneRankMovesNothingAcrossABusForReductionsAndGathers) {
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllReduce, 1), 0.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllGather, 1), 0.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllToAll, 1), 0.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kSendRecvRing, 1), 1.0);
}

TEST(Bandwidth, ReproducesTheNcclTestsH200AllReduceFigure) {
  // nccl-tests 2.19.6 on one H200: all_reduce 512 MiB in 257.6 us -> algbw 2084 GB/s.
  const CollectiveShape s = shape_of(Collective::kAllReduce, 512ull << 20, 4, 1);
  EXPECT_NEAR(algbw_gbps(s.algbw_bytes, 257.6e-6), 2084.0, 0.5);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::kAllReduce, 1, s.algbw_bytes, 257.6e-6), 0.0);
  EXPECT_NEAR(busbw_gbps(Collective::kAllReduce, 8, s.algbw_bytes, 257.6e-6), 2084.1 * 1.75, 1.0);
  EXPECT_DOUBLE_EQ(algbw_gbps(1000, 0.0), 0.0);
}

TEST(Shape, AllGatherCountsTheGatheredBytesLikeNcclTests) {
  const CollectiveShape s = shape_of(Collective::kAllGather, 1 << 20, 4, 4);
  EXPECT_EQ(s.count, 65536u);  // per rank
  EXPECT_EQ(s.send_count, 65536u);
  EXPECT_EQ(s.recv_count, 262144u);
  EXPECT_EQ(s.send_in_place_step, 65536u);
  EXPECT_EQ(s.size_bytes, 1u << 20);
  EXPECT_EQ(s.algbw_bytes, 1u << 20);
}

TEST(Shape, ReduceScatterAndAllToAll) {
  const CollectiveShape rs = shape_of(Collective::kReduceScatter, 1 << 20, 2, 8);
  EXPECT_EQ(rs.count, 65536u);
  EXPECT_EQ(rs.send_count, 524288u);
  EXPECT_EQ(rs.recv_count, 65536u);
  EXPECT_EQ(rs.recv_in_place_step, 65536u);
  EXPECT_EQ(rs.size_bytes, 1u << 20);
  const CollectiveShape a2a = shape_of(Collective::kAllToAll, 1 << 20, 4, 8);
  EXPECT_EQ(a2a.count, 32768u);  // per peer
  EXPECT_EQ(a2a.send_count, 262144u);
  EXPECT_EQ(a2a.recv_count, 262144u);
  EXPECT_EQ(a2a.algbw_bytes, 1u << 20);
}

TEST(Shape, SlicesRoundDownToSixteenBytesAndMayVanish) {
  // 8 B of float over one rank is 2 elements, below one 16-byte slice: nccl-tests' count 0.
  EXPECT_EQ(shape_of(Collective::kAllGather, 8, 4, 1).count, 0u);
  // 100 B of half over 3 ranks: 50 elements, 16 per rank -> rounded to 16 (multiple of 8).
  const CollectiveShape s = shape_of(Collective::kReduceScatter, 100, 2, 3);
  EXPECT_EQ(s.count, 16u);
  EXPECT_EQ(s.send_count, 48u);
  // Whole-buffer operations keep every element.
  EXPECT_EQ(shape_of(Collective::kAllReduce, 8, 4, 3).count, 2u);
  EXPECT_EQ(shape_of(Collective::kAllReduce, 10, 4, 3).size_bytes, 8u);
}

TEST(Collective, NamesRoundTripAndUnknownNamesAreInputErrors) {
  for (Collective c : all_collectives()) EXPECT_EQ(parse_collective(to_string(c)), c);
  try {
    parse_collective("allreduce");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--collectives: unknown collective `allreduce`"),
              std::string::npos);
  }
}

TEST(Collective, InPlaceExistsOnlyForTheFourCollectives) {
  EXPECT_TRUE(supports_in_place(Collective::kAllReduce));
  EXPECT_TRUE(supports_in_place(Collective::kAllGather));
  EXPECT_TRUE(supports_in_place(Collective::kReduceScatter));
  EXPECT_TRUE(supports_in_place(Collective::kBroadcast));
  EXPECT_FALSE(supports_in_place(Collective::kAllToAll));
  EXPECT_FALSE(supports_in_place(Collective::kSendRecvRing));
  EXPECT_FALSE(supports_in_place(Collective::kSendRecvPair));
}

}  // namespace
}  // namespace p2p::nccl
