#include "kernels/pattern.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "kernels/preload.hpp"

namespace p2p::kernels {
namespace {

constexpr int kThreads = 256;

__global__ void fill_kernel(uint4* buffer, std::size_t vectors, unsigned tail_words,
                            std::uint32_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t v = first; v < vectors; v += stride) {
    const std::uint64_t w = v * 4;
    buffer[v] = make_uint4(pattern_word(seed, w), pattern_word(seed, w + 1),
                           pattern_word(seed, w + 2), pattern_word(seed, w + 3));
  }
  if (first < tail_words) {
    auto* tail = reinterpret_cast<std::uint32_t*>(buffer + vectors);
    tail[first] = pattern_word(seed, vectors * 4 + first);
  }
}

__global__ void count_kernel(const uint4* buffer, std::size_t vectors, unsigned tail_words,
                             std::uint32_t seed, unsigned long long* mismatches) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long bad = 0;
  for (std::size_t v = first; v < vectors; v += stride) {
    const uint4 got = buffer[v];
    const std::uint64_t w = v * 4;
    bad += (got.x != pattern_word(seed, w)) + (got.y != pattern_word(seed, w + 1)) +
           (got.z != pattern_word(seed, w + 2)) + (got.w != pattern_word(seed, w + 3));
  }
  if (first < tail_words) {
    const auto* tail = reinterpret_cast<const std::uint32_t*>(buffer + vectors);
    bad += tail[first] != pattern_word(seed, vectors * 4 + first);
  }
  // One atomic per warp: a fully corrupted 1 GiB buffer must not serialise on one counter.
  for (int offset = 16; offset > 0; offset /= 2) bad += __shfl_down_sync(0xffffffffu, bad, offset);
  if ((threadIdx.x & 31) == 0 && bad != 0) atomicAdd(mismatches, bad);
}

__global__ void flip_kernel(std::uint32_t* buffer, std::uint64_t total_words, std::uint64_t words) {
  const std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= words) return;
  // Spread from the first word to the last: index = k * (total-1) / (words-1).
  const std::uint64_t index = words == 1 ? 0 : k * (total_words - 1) / (words - 1);
  buffer[index] = ~buffer[index];
}

void check_buffer(const void* buffer, std::size_t bytes) {
  if (bytes % 4 != 0) throw std::invalid_argument("pattern: size must be a multiple of 4 bytes");
  if (reinterpret_cast<std::uintptr_t>(buffer) % 16 != 0) {
    throw std::invalid_argument("pattern: buffer must be 16-byte aligned");
  }
}

int grid_for(std::size_t items) {
  int device = 0;
  P2P_CHECK(cudaGetDevice(&device));
  int sms = 0;
  P2P_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t needed = (items + kThreads - 1) / kThreads;
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(needed, sms * 8)));
}

}  // namespace

void launch_fill_pattern(void* buffer, std::size_t bytes, std::uint32_t seed, cudaStream_t stream) {
  check_buffer(buffer, bytes);
  if (bytes == 0) return;
  const std::size_t vectors = bytes / 16;
  const unsigned tail = static_cast<unsigned>((bytes % 16) / 4);
  fill_kernel<<<grid_for(std::max<std::size_t>(vectors, tail)), kThreads, 0, stream>>>(
      static_cast<uint4*>(buffer), vectors, tail, seed);
  P2P_CHECK(cudaGetLastError());
}

void launch_count_mismatches(const void* buffer, std::size_t bytes, std::uint32_t seed,
                             unsigned long long* mismatches, cudaStream_t stream) {
  check_buffer(buffer, bytes);
  if (bytes == 0) return;
  const std::size_t vectors = bytes / 16;
  const unsigned tail = static_cast<unsigned>((bytes % 16) / 4);
  count_kernel<<<grid_for(std::max<std::size_t>(vectors, tail)), kThreads, 0, stream>>>(
      static_cast<const uint4*>(buffer), vectors, tail, seed, mismatches);
  P2P_CHECK(cudaGetLastError());
}

std::uint64_t launch_flip_words(void* buffer, std::size_t bytes, std::uint64_t words,
                                cudaStream_t stream) {
  check_buffer(buffer, bytes);
  const std::uint64_t total = bytes / 4;
  const std::uint64_t n = std::min(words, total);
  if (n == 0) return 0;
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  flip_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<std::uint32_t*>(buffer), total, n);
  P2P_CHECK(cudaGetLastError());
  return n;
}

void preload_pattern_kernels(std::vector<LoadedKernel>& loaded) {
  loaded.push_back(load_kernel("fill_pattern", reinterpret_cast<const void*>(fill_kernel)));
  loaded.push_back(load_kernel("count_mismatches", reinterpret_cast<const void*>(count_kernel)));
  loaded.push_back(load_kernel("flip_words", reinterpret_cast<const void*>(flip_kernel)));
}

}  // namespace p2p::kernels
