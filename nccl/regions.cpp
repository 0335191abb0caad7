#include "nccl/regions.hpp"

namespace p2p::nccl {

RankRegions rank_regions(const RegionQuery& q, std::uintptr_t send_base, std::uintptr_t recv_base) {
  const std::uint64_t rank = static_cast<std::uint64_t>(q.rank);
  const std::uint64_t eb = q.element_bytes;
  const CollectiveShape& s = q.shape;
  RankRegions r;
  r.send = send_base;
  r.recv = recv_base;
  if (q.in_place) {
    switch (q.collective) {
      case Collective::kAllReduce:
      case Collective::kBroadcast: r.send = recv_base; break;
      case Collective::kAllGather:  // my contribution already sits in my slice of the result
        r.send = recv_base + rank * s.send_in_place_step * eb;
        break;
      case Collective::kReduceScatter:  // my reduced slice lands inside my own input
        r.recv = send_base + rank * s.recv_in_place_step * eb;
        break;
      default: break;  // no in-place form (supports_in_place() is false); keep separate buffers
    }
  }
  r.input = r.send;
  r.input_count = s.send_count;
  r.output = r.recv;
  r.output_count = s.recv_count;
  if (q.collective == Collective::kSendRecvPair) {
    if (q.rank != q.src_rank) r.input_count = 0;
    if (q.rank != q.dst_rank) r.output_count = 0;
  }
  return r;
}

}  // namespace p2p::nccl
