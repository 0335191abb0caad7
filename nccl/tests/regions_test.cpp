#include "nccl/regions.hpp"

#include <gtest/gtest.h>

namespace p2p::nccl {
namespace {

constexpr std::uintptr_t kSend = 0x10000000;
constexpr std::uintptr_t kRecv = 0x20000000;

RegionQuery query(Collective c, bool in_place, int rank, int n) {
  RegionQuery q;
  q.collective = c;
  q.shape = shape_of(c, 4096, 4, n);
  q.element_bytes = 4;
  q.in_place = in_place;
  q.rank = rank;
  return q;
}

TEST(Regions, OutOfPlaceUsesSeparateBuffers) {
  const RankRegions r = rank_regions(query(Collective::kAllReduce, false, 1, 2), kSend, kRecv);
  EXPECT_EQ(r.send, kSend);
  EXPECT_EQ(r.recv, kRecv);
  EXPECT_EQ(r.input, kSend);
  EXPECT_EQ(r.input_count, 1024u);
  EXPECT_EQ(r.output, kRecv);
  EXPECT_EQ(r.output_count, 1024u);
}

TEST(Regions, InPlaceAllReduceAndBroadcastShareTheReceiveBuffer) {
  for (Collective c : {Collective::kAllReduce, Collective::kBroadcast}) {
    const RankRegions r = rank_regions(query(c, true, 0, 4), kSend, kRecv);
    EXPECT_EQ(r.send, kRecv);
    EXPECT_EQ(r.recv, kRecv);
    EXPECT_EQ(r.input, kRecv);
  }
}

TEST(Regions, InPlaceAllGatherSendsFromItsOwnSliceOfTheResult) {
  const RankRegions r = rank_regions(query(Collective::kAllGather, true, 2, 4), kSend, kRecv);
  // 4096 B over 4 ranks = 256 floats per rank; rank 2's slice starts 512 floats in.
  EXPECT_EQ(r.send, kRecv + 2 * 256 * 4);
  EXPECT_EQ(r.recv, kRecv);
  EXPECT_EQ(r.input, r.send);
  EXPECT_EQ(r.input_count, 256u);
  EXPECT_EQ(r.output_count, 1024u);
}

TEST(Regions, InPlaceReduceScatterReceivesIntoItsOwnSliceOfTheInput) {
  const RankRegions r = rank_regions(query(Collective::kReduceScatter, true, 3, 4), kSend, kRecv);
  EXPECT_EQ(r.send, kSend);
  EXPECT_EQ(r.recv, kSend + 3 * 256 * 4);
  EXPECT_EQ(r.input_count, 1024u);
  EXPECT_EQ(r.output, r.recv);
  EXPECT_EQ(r.output_count, 256u);
}

TEST(Regions, OperationsWithoutAnInPlaceFormKeepSeparateBuffers) {
  const RankRegions r = rank_regions(query(Collective::kAllToAll, true, 1, 2), kSend, kRecv);
  EXPECT_EQ(r.send, kSend);
  EXPECT_EQ(r.recv, kRecv);
}

TEST(Regions, OnlyTheSenderOfAPairHasInputAndOnlyTheReceiverOutput) {
  RegionQuery q = query(Collective::kSendRecvPair, false, 0, 3);
  q.src_rank = 0;
  q.dst_rank = 2;
  const RankRegions src = rank_regions(q, kSend, kRecv);
  EXPECT_EQ(src.input_count, 1024u);
  EXPECT_EQ(src.output_count, 0u);
  q.rank = 2;
  const RankRegions dst = rank_regions(q, kSend, kRecv);
  EXPECT_EQ(dst.input_count, 0u);
  EXPECT_EQ(dst.output_count, 1024u);
  q.rank = 1;
  const RankRegions idle = rank_regions(q, kSend, kRecv);
  EXPECT_EQ(idle.input_count + idle.output_count, 0u);
  q.src_rank = q.dst_rank = 1;  // a rank sending to itself has both
  const RankRegions self = rank_regions(q, kSend, kRecv);
  EXPECT_EQ(self.input_count, 1024u);
  EXPECT_EQ(self.output_count, 1024u);
}

}  // namespace
}  // namespace p2p::nccl
