// One operation as the runner plans it and run/launch.cpp enqueues it. Plain data.
#pragma once

#include <cstdint>
#include <vector>

#include "nccl/collective.hpp"
#include "nccl/dtype.hpp"

namespace p2p::nccl {

struct OpSpec {
  Collective collective = Collective::kAllReduce;
  DataType dtype = DataType::kFloat32;
  std::uint64_t count = 0;  // CollectiveShape::count
  int root = 0;             // broadcast
  int src_rank = 0;         // kSendRecvPair
  int dst_rank = 0;
};

// The ranks whose streams carry work for `op` (both ends of a pair, else every rank).
std::vector<int> participants(const OpSpec& op, int nranks);

}  // namespace p2p::nccl
