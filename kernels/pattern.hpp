// Data verification: every copied buffer is filled with a pattern seeded per transfer and
// sample, and after the copy the GPU that owns the destination counts the 32-bit words that
// differ. Every word is checked, including a tail that is not a whole 16-byte vector.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define P2P_HOST_DEVICE __host__ __device__
#else
#define P2P_HOST_DEVICE
#endif

namespace p2p::kernels {

// Word `index` of the pattern for `seed`. For a fixed seed, distinct indices below 2^32 give
// distinct words (the mix is a bijection), so a shifted, repeated or stale block never matches.
P2P_HOST_DEVICE inline std::uint32_t pattern_word(std::uint32_t seed, std::uint64_t index) {
  std::uint32_t x = seed ^ (static_cast<std::uint32_t>(index) * 0x9E3779B9u) ^
                    (static_cast<std::uint32_t>(index >> 32) * 0x85EBCA6Bu);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

// Writes pattern(seed) over `bytes` (a multiple of 4, 16-byte aligned buffer) on `stream`.
void launch_fill_pattern(void* buffer, std::size_t bytes, std::uint32_t seed, cudaStream_t stream);

// Adds to *mismatches (device memory, or mapped host memory) the number of 32-bit words of
// `buffer` that differ from pattern(seed). The caller zeroes the counter.
void launch_count_mismatches(const void* buffer, std::size_t bytes, std::uint32_t seed,
                             unsigned long long* mismatches, cudaStream_t stream);

// Test-only corruption: inverts `words` 32-bit words spread evenly over the buffer, the first
// and (when words > 1) the last included. Returns how many words it inverts (at most all).
std::uint64_t launch_flip_words(void* buffer, std::size_t bytes, std::uint64_t words,
                                cudaStream_t stream);

}  // namespace p2p::kernels
