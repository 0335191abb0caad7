// The list of measurements a sweep makes, in order: collective, type, [pair,] size, placement.
// Pure, so the CPU tests can check what would run on any number of ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "nccl/collective.hpp"
#include "nccl/dtype.hpp"
#include "nccl/op_spec.hpp"

namespace p2p::nccl {

struct PlannedCase {
  OpSpec op;
  CollectiveShape shape;
  bool in_place = false;
};

// Sizes whose shape has count 0 (a slice smaller than 16 bytes per rank) are left out, as are
// in-place runs of operations without an in-place form. kSendRecvPair expands into every
// ordered pair, the diagonal (a rank sending to itself) included, at the largest size only
// unless `pairs_every_size`.
std::vector<PlannedCase> plan_cases(const std::vector<Collective>& collectives,
                                    const std::vector<DataType>& dtypes,
                                    const std::vector<std::uint64_t>& sizes, int nranks,
                                    bool pairs_every_size = false);

// The buffer size every rank needs for the whole plan (largest send or receive buffer).
std::uint64_t buffer_bytes(const std::vector<PlannedCase>& plan);

// One case per (operation, type) of the plan: the one with the largest message, in plan order
// of first appearance. What the sweep warms up before timing anything, as nccl-tests does.
std::vector<PlannedCase> largest_per_operation(const std::vector<PlannedCase>& plan);

}  // namespace p2p::nccl
