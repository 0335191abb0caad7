// A staged lane: src GPU -> pinned bounce slot (device-to-host on the lane's stream) -> dst GPU
// (host-to-device on a helper stream on the destination GPU). Events hand each slot back and
// forth so both PCIe directions stay busy; the slot count and chunk size come from
// staged_layout, a pure function of the size and the batch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "common/cuda_resources.hpp"

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

// The most copies of `bytes` a staged batch holds: kStagedMaxChunksPerBatch chunks, at least 1.
int staged_max_copies_per_batch(std::uint64_t bytes);

class StagedPipeline {
 public:
  // For lane `l` (GPU to GPU, else std::invalid_argument) copying `bytes`, `copies` to a batch.
  // Bounce slots come from the options' host memory (and cache).
  StagedPipeline(const Lane& l, std::uint64_t bytes, int copies, const MeasureOptions& opt);

  // Enqueues one copy of `src` into `dst`, chunk by chunk, each stream's work issued with its
  // own GPU current. `chunk_counter` runs over the whole batch: it picks the slot and says
  // when a slot must first be drained by the destination.
  void enqueue_copy(const void* src, void* dst, cudaStream_t lane_stream,
                    std::size_t& chunk_counter);

  // Records on the helper stream that the last chunk landed and makes `lane_stream` wait for
  // it, so the lane's end event covers the host-to-device half too.
  void join(cudaStream_t lane_stream);

  cudaStream_t helper() const { return helper_.get(); }

 private:
  int src_device_ = -1;
  int dst_device_ = -1;
  std::uint64_t bytes_ = 0;
  StagedLayout layout_;
  Buffer bounce_;
  cuda::Stream helper_;
  std::vector<cuda::Event> copied_out_;  // on the source GPU: slot holds a chunk
  std::vector<cuda::Event> copied_in_;   // on the destination GPU: slot is free again
  cuda::Event drained_;                  // on the destination GPU: last chunk landed
};

}  // namespace p2p::bench
