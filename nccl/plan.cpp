#include "nccl/plan.hpp"

#include <algorithm>

namespace p2p::nccl {

namespace {

void add_sizes(std::vector<PlannedCase>& out, OpSpec op, const std::vector<std::uint64_t>& sizes,
               int nranks) {
  for (std::uint64_t bytes : sizes) {
    const CollectiveShape shape = shape_of(op.collective, bytes, element_bytes(op.dtype), nranks);
    if (shape.count == 0) continue;
    op.count = shape.count;
    out.push_back({op, shape, false});
    if (supports_in_place(op.collective)) out.push_back({op, shape, true});
  }
}

}  // namespace

std::vector<int> participants(const OpSpec& op, int nranks) {
  if (op.collective == Collective::kSendRecvPair) {
    if (op.src_rank == op.dst_rank) return {op.src_rank};
    return {op.src_rank, op.dst_rank};
  }
  std::vector<int> all(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) all[static_cast<std::size_t>(r)] = r;
  return all;
}

std::vector<PlannedCase> plan_cases(const std::vector<Collective>& collectives,
                                    const std::vector<DataType>& dtypes,
                                    const std::vector<std::uint64_t>& sizes, int nranks,
                                    bool pairs_every_size) {
  std::vector<PlannedCase> out;
  std::vector<std::uint64_t> pair_sizes = sizes;
  if (!pairs_every_size && !sizes.empty())
    pair_sizes = {*std::max_element(sizes.begin(), sizes.end())};
  for (Collective c : collectives) {
    for (DataType t : dtypes) {
      OpSpec op;
      op.collective = c;
      op.dtype = t;
      if (c != Collective::kSendRecvPair) {
        add_sizes(out, op, sizes, nranks);
        continue;
      }
      for (int src = 0; src < nranks; ++src) {
        for (int dst = 0; dst < nranks; ++dst) {
          op.src_rank = src;
          op.dst_rank = dst;
          add_sizes(out, op, pair_sizes, nranks);
        }
      }
    }
  }
  return out;
}

std::uint64_t buffer_bytes(const std::vector<PlannedCase>& plan) {
  std::uint64_t bytes = 0;
  for (const auto& c : plan) bytes = std::max(bytes, c.shape.size_bytes);
  return bytes;
}

std::vector<PlannedCase> largest_per_operation(const std::vector<PlannedCase>& plan) {
  std::vector<PlannedCase> out;
  for (const PlannedCase& c : plan) {
    auto same = std::find_if(out.begin(), out.end(), [&](const PlannedCase& o) {
      return o.op.collective == c.op.collective && o.op.dtype == c.op.dtype;
    });
    if (same == out.end()) {
      out.push_back(c);
    } else if (c.shape.size_bytes > same->shape.size_bytes) {
      *same = c;
    }
  }
  return out;
}

}  // namespace p2p::nccl
