// How a bandwidth sample is laid out, decided from the lanes and the size alone (no CUDA):
// copies per timed batch, whether two SM lanes run as one fused kernel, the untimed padding of
// each lane, and how a staged lane cuts its copies into chunks through the bounce slots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/measure/lane.hpp"

namespace p2p::bench {

// A staged copy moves in chunks of about this size (at most kStagedMaxChunksPerCopy of them),
// through kStagedSlots pinned slots, and a staged batch holds at most kStagedMaxChunksPerBatch
// chunks, so the stream holding them never blocks the host in enqueue.
constexpr std::uint64_t kStagedChunkBytes = 4ull << 20;
constexpr std::size_t kStagedMaxChunksPerCopy = 16;
constexpr std::size_t kStagedMaxChunksPerBatch = 64;
constexpr std::size_t kStagedSlots = 4;

struct StagedLayout {
  std::size_t chunks_per_copy = 0;
  std::size_t chunk_bytes = 0;  // a multiple of 256; the last chunk of a copy may be shorter
  std::size_t slots = 0;        // bounce slots, never more than the batch has chunks
};

// For copies of `bytes`, `copies` to a batch.
StagedLayout staged_layout(std::uint64_t bytes, int copies);

struct BatchPlan {
  int copies = 0;           // per timed batch, per lane
  bool fused_pair = false;  // two SM lanes of one issuer: one kernel, alternate warps on each
  bool padded = false;      // each lane under load: untimed copies before and after its batch
  int lead_in_copies = 0;   // untimed, before each lane's start event
  int tail_copies = 0;      // untimed, after the sample's last end event
};

// `copies_per_batch` 0: sizes.hpp's copies_per_batch(bytes); a staged lane then caps the batch
// at kStagedMaxChunksPerBatch chunks. `each_lane_under_load` pads multi-lane samples, except a
// fused pair (one kernel keeps both directions busy for its whole run) and staged lanes (they
// pipeline through shared slots and are never bidirectional). Throws std::invalid_argument
// without lanes.
BatchPlan plan_batch(const std::vector<Lane>& lanes, std::uint64_t bytes, int copies_per_batch,
                     bool each_lane_under_load);

}  // namespace p2p::bench
