// Enqueues one operation on every participating local rank of a clique, inside one NCCL group
// (one thread drives all its GPUs, so the ranks' calls must be grouped or the first would wait
// for the others forever).
#pragma once

#include <nccl.h>

#include <cstdint>
#include <vector>

#include "nccl/op_spec.hpp"
#include "nccl/regions.hpp"
#include "nccl/run/clique.hpp"

namespace p2p::nccl {

ncclDataType_t nccl_type(DataType t);

// `regions[clique.slot(r)]` gives local rank r's send and receive pointers.
void enqueue(const Clique& clique, const OpSpec& op, const std::vector<RankRegions>& regions);

}  // namespace p2p::nccl
