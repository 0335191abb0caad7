#include "bench/measure/batch_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "bench/sizes.hpp"

namespace p2p::bench {
namespace {

std::size_t staged_chunks_per_copy(std::uint64_t bytes) {
  const std::size_t want =
      static_cast<std::size_t>((bytes + kStagedChunkBytes - 1) / kStagedChunkBytes);
  return std::clamp<std::size_t>(want, 1, kStagedMaxChunksPerCopy);
}

}  // namespace

StagedLayout staged_layout(std::uint64_t bytes, int copies) {
  StagedLayout s;
  s.chunks_per_copy = staged_chunks_per_copy(bytes);
  s.chunk_bytes = static_cast<std::size_t>((bytes + s.chunks_per_copy - 1) / s.chunks_per_copy);
  s.chunk_bytes = (s.chunk_bytes + 255) / 256 * 256;
  s.slots = std::min(kStagedSlots, s.chunks_per_copy * static_cast<std::size_t>(copies));
  return s;
}

BatchPlan plan_batch(const std::vector<Lane>& lanes, std::uint64_t bytes,
                     int copies_per_batch_option, bool each_lane_under_load) {
  if (lanes.empty()) throw std::invalid_argument("bandwidth case without lanes");
  BatchPlan p;
  p.copies = copies_per_batch_option > 0 ? copies_per_batch_option : copies_per_batch(bytes);
  const bool staged = std::any_of(lanes.begin(), lanes.end(),
                                  [](const Lane& l) { return l.method == Method::kStaged; });
  if (staged) {
    const std::size_t chunks = staged_chunks_per_copy(bytes);
    const int most = static_cast<int>(std::max<std::size_t>(1, kStagedMaxChunksPerBatch / chunks));
    p.copies = std::min(p.copies, most);
  }
  p.fused_pair = lanes.size() == 2 && lanes[0].method == Method::kSm &&
                 lanes[1].method == Method::kSm && lanes[0].issuer == lanes[1].issuer;
  p.padded = each_lane_under_load && lanes.size() > 1 && !p.fused_pair && !staged;
  if (p.padded) {
    p.lead_in_copies = std::max(1, p.copies / 4);
    p.tail_copies = p.copies;
  }
  return p;
}

}  // namespace p2p::bench
