#include "bench/measure/methods/staged_pipeline.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/cuda_check.hpp"

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

int staged_max_copies_per_batch(std::uint64_t bytes) {
  const std::size_t chunks = staged_chunks_per_copy(bytes);
  return static_cast<int>(std::max<std::size_t>(1, kStagedMaxChunksPerBatch / chunks));
}

StagedPipeline::StagedPipeline(const Lane& l, std::uint64_t bytes, int copies,
                               const MeasureOptions& opt)
    : bytes_(bytes), layout_(staged_layout(bytes, copies)) {
  if (!l.src.is_gpu() || !l.dst.is_gpu())
    throw std::invalid_argument("staged lanes run GPU to GPU");
  src_device_ = opt.placement.device(l.src.gpu);
  dst_device_ = opt.placement.device(l.dst.gpu);
  bounce_ = Buffer::allocate(Endpoint::host(), layout_.chunk_bytes * layout_.slots, opt.host_memory,
                             -1, opt.host_cache);
  helper_ = cuda::make_stream(dst_device_);
  for (std::size_t s = 0; s < layout_.slots; ++s) {
    copied_out_.push_back(cuda::make_event(src_device_, cudaEventDisableTiming));
    copied_in_.push_back(cuda::make_event(dst_device_, cudaEventDisableTiming));
  }
  drained_ = cuda::make_event(dst_device_, cudaEventDisableTiming);
}

void StagedPipeline::enqueue_copy(const void* src, void* dst, cudaStream_t lane_stream,
                                  std::size_t& chunk_counter) {
  cudaStream_t out = lane_stream;
  cudaStream_t in = helper_.get();
  for (std::size_t c = 0; c < layout_.chunks_per_copy; ++c, ++chunk_counter) {
    const std::size_t offset = c * layout_.chunk_bytes;
    if (offset >= bytes_) break;
    const std::size_t len = std::min<std::size_t>(layout_.chunk_bytes, bytes_ - offset);
    const std::size_t slot = chunk_counter % layout_.slots;
    char* bounce = static_cast<char*>(bounce_.get()) + slot * layout_.chunk_bytes;
    {
      cuda::DeviceGuard on(src_device_);
      // The slot is reused only after the destination GPU has drained it.
      if (chunk_counter >= layout_.slots)
        P2P_CHECK(cudaStreamWaitEvent(out, copied_in_[slot].get(), 0));
      P2P_CHECK(cudaMemcpyAsync(bounce, static_cast<const char*>(src) + offset, len,
                                cudaMemcpyDeviceToHost, out));
      P2P_CHECK(cudaEventRecord(copied_out_[slot].get(), out));
    }
    {
      cuda::DeviceGuard on(dst_device_);
      P2P_CHECK(cudaStreamWaitEvent(in, copied_out_[slot].get(), 0));
      P2P_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + offset, bounce, len,
                                cudaMemcpyHostToDevice, in));
      P2P_CHECK(cudaEventRecord(copied_in_[slot].get(), in));
    }
  }
}

void StagedPipeline::join(cudaStream_t lane_stream) {
  {
    cuda::DeviceGuard on_dst(dst_device_);
    P2P_CHECK(cudaEventRecord(drained_.get(), helper_.get()));
  }
  P2P_CHECK(cudaStreamWaitEvent(lane_stream, drained_.get(), 0));
}

}  // namespace p2p::bench
