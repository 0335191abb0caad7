// Where each rank's NCCL arguments point and which part of its buffers is input and output,
// for out-of-place and in-place runs (nccl-tests' in-place offsets). Pure pointer arithmetic on
// addresses, so the CPU tests check it with made-up base addresses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "nccl/collective.hpp"

namespace p2p::nccl {

struct RankRegions {
  std::uintptr_t send = 0;   // sendbuff argument
  std::uintptr_t recv = 0;   // recvbuff argument
  std::uintptr_t input = 0;  // filled with the rank's pattern before the run
  std::uint64_t input_count = 0;
  std::uintptr_t output = 0;  // checked after the run; output_count 0 = nothing to check here
  std::uint64_t output_count = 0;
};

struct RegionQuery {
  Collective collective = Collective::kAllReduce;
  CollectiveShape shape;
  std::size_t element_bytes = 4;
  bool in_place = false;
  int rank = 0;
  int src_rank = 0;  // kSendRecvPair: only dst has an output, only src an input
  int dst_rank = 0;
};

RankRegions rank_regions(const RegionQuery& q, std::uintptr_t send_base, std::uintptr_t recv_base);

}  // namespace p2p::nccl
