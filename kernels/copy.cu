#include "kernels/copy.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "kernels/preload.hpp"

namespace p2p::kernels {
namespace {

// One warp copies a tile of 32 * kUnroll vectors: kUnroll independent 16-byte loads per thread
// are in flight before the first store, enough to cover PCIe/NVLink latency (about 1 µs) as
// well as HBM latency, and each warp's tile is contiguous, which keeps DRAM pages open.
// Warps stride over the tiles; the vectors after the last whole tile are shared by all
// threads, and the 0-3 words after the last vector by the first threads of warp 0.
template <int kUnroll>
__device__ void copy_tiles(uint4* __restrict__ dst, const uint4* __restrict__ src,
                           std::size_t vectors, std::size_t warp, std::size_t warps,
                           unsigned lane) {
  constexpr std::size_t kTile = 32 * kUnroll;
  const std::size_t tiles = vectors / kTile;
  for (std::size_t t = warp; t < tiles; t += warps) {
    const std::size_t base = t * kTile + lane;
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = src[base + u * 32];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) dst[base + u * 32] = v[u];
  }
  for (std::size_t i = tiles * kTile + warp * 32 + lane; i < vectors; i += warps * 32)
    dst[i] = src[i];
}

__device__ void copy_tail(const uint4* src, uint4* dst, std::size_t vectors, unsigned tail_words,
                          std::size_t warp, unsigned lane) {
  if (warp == 0 && lane < tail_words) {
    reinterpret_cast<std::uint32_t*>(dst + vectors)[lane] =
        reinterpret_cast<const std::uint32_t*>(src + vectors)[lane];
  }
}

template <int kUnroll>
__global__ void copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src,
                            std::size_t vectors, unsigned tail_words) {
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  copy_tiles<kUnroll>(dst, src, vectors, thread / 32, warps, threadIdx.x % 32);
  copy_tail(src, dst, vectors, tail_words, thread / 32, threadIdx.x % 32);
}

// Two copies in one kernel: even warps do the first, odd warps the second, so both directions
// share every SM evenly for the whole run. The grid covers the data, one 16-byte vector per
// thread, instead of striding: a grid-stride loop fixes each warp's share in advance, so
// whichever direction the link serves faster finishes first and the other runs on alone,
// while blocks that each carry both directions and retire as they finish let the block
// scheduler keep the mix even to the end (1.7% more each way host<->H200 at 512 MiB, 42.05
// against 41.3 GB/s). Two kernels on two streams would each get the SMs the other left free.
// Every thread touches its vector once per launch, so nothing is read twice within a copy.
__global__ void copy_pair_kernel(uint4* __restrict__ dst0, const uint4* __restrict__ src0,
                                 uint4* __restrict__ dst1, const uint4* __restrict__ src1,
                                 std::size_t vectors, unsigned tail_words) {
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t warp = thread / 32;
  const unsigned lane = threadIdx.x % 32;
  const bool second = (warp & 1) != 0;
  uint4* dst = second ? dst1 : dst0;
  const uint4* src = second ? src1 : src0;
  const std::size_t i = warp / 2 * 32 + lane;
  if (i < vectors) dst[i] = src[i];
  copy_tail(src, dst, vectors, tail_words, warp / 2, lane);
}

using KernelFn = void (*)(uint4*, const uint4*, std::size_t, unsigned);

struct Variant {
  int unroll;
  KernelFn single;
};

const Variant& variant_for(int unroll) {
  static const Variant kVariants[] = {
      {1, copy_kernel<1>}, {2, copy_kernel<2>},   {4, copy_kernel<4>},
      {8, copy_kernel<8>}, {16, copy_kernel<16>},
  };
  for (const auto& v : kVariants) {
    if (v.unroll == unroll) return v;
  }
  throw std::invalid_argument("copy kernel: unroll " + std::to_string(unroll) +
                              " is not one of 1, 2, 4, 8, 16");
}

void check_args(const void* dst, const void* src, std::size_t bytes) {
  if (bytes % 4 != 0)
    throw std::invalid_argument("copy kernel: size must be a multiple of 4 bytes");
  if (reinterpret_cast<std::uintptr_t>(dst) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(src) % 16 != 0) {
    throw std::invalid_argument("copy kernel: buffers must be 16-byte aligned");
  }
}

// A 4 KiB copy needs one block, not a full grid: extra blocks only add launch latency.
int blocks_for(std::size_t vectors, const CopyShape& shape) {
  if (shape.blocks <= 0)
    throw std::invalid_argument("copy kernel: resolve the shape before launching");
  const auto per_block = static_cast<std::size_t>(shape.threads_per_block);
  const std::size_t needed = (vectors + per_block - 1) / per_block;
  return static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>(needed, static_cast<std::size_t>(shape.blocks))));
}

}  // namespace

CopyShape resolve_copy_shape(int device, const CopyShape& wanted) {
  CopyShape shape = wanted;
  const Variant& v = variant_for(shape.unroll);
  // Multiples of 64 so that every block holds as many even as odd warps (copy pairs).
  if (shape.threads_per_block <= 0 || shape.threads_per_block > 1024 ||
      shape.threads_per_block % 64 != 0) {
    throw std::invalid_argument(
        "copy kernel: threads per block must be a multiple of 64 up to 1024");
  }
  if (shape.blocks > 0) return shape;
  int sms = 0;
  P2P_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int current = 0;
  P2P_CHECK(cudaGetDevice(&current));
  if (current != device) P2P_CHECK(cudaSetDevice(device));
  int per_sm = 0;
  const cudaError_t e =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.single, shape.threads_per_block, 0);
  if (current != device) P2P_CHECK(cudaSetDevice(current));
  P2P_CHECK(e);
  shape.blocks = sms * std::max(per_sm, 1);
  return shape;
}

void launch_copy(void* dst, const void* src, std::size_t bytes, const CopyShape& shape,
                 cudaStream_t stream) {
  check_args(dst, src, bytes);
  if (bytes == 0) return;
  const Variant& v = variant_for(shape.unroll);
  const std::size_t vectors = bytes / 16;
  const auto tail_words = static_cast<unsigned>((bytes % 16) / 4);
  v.single<<<blocks_for(vectors, shape), shape.threads_per_block, 0, stream>>>(
      static_cast<uint4*>(dst), static_cast<const uint4*>(src), vectors, tail_words);
  P2P_CHECK(cudaGetLastError());
}

void launch_copy_pair(void* dst0, const void* src0, void* dst1, const void* src1, std::size_t bytes,
                      const CopyShape& shape, cudaStream_t stream) {
  check_args(dst0, src0, bytes);
  check_args(dst1, src1, bytes);
  if (bytes == 0) return;
  // The grid covers the data, so the shape's `blocks` and `unroll` play no part here: only its
  // block size, which must hold as many even as odd warps.
  if (shape.threads_per_block <= 0 || shape.threads_per_block % 64 != 0)
    throw std::invalid_argument("copy kernel: resolve the shape before launching");
  const std::size_t vectors = bytes / 16;
  const auto tail_words = static_cast<unsigned>((bytes % 16) / 4);
  // One warp per 32 vectors of each copy; at least one warp pair for the tail words.
  const std::size_t warp_pairs = std::max<std::size_t>(1, (vectors + 31) / 32);
  const std::size_t warps_per_block = static_cast<std::size_t>(shape.threads_per_block) / 32;
  const std::size_t blocks = (2 * warp_pairs + warps_per_block - 1) / warps_per_block;
  if (blocks > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("copy kernel: " + std::to_string(bytes) +
                                " bytes need more blocks than one launch holds");
  copy_pair_kernel<<<static_cast<unsigned>(blocks), shape.threads_per_block, 0, stream>>>(
      static_cast<uint4*>(dst0), static_cast<const uint4*>(src0), static_cast<uint4*>(dst1),
      static_cast<const uint4*>(src1), vectors, tail_words);
  P2P_CHECK(cudaGetLastError());
}

void preload_copy_kernels(std::vector<LoadedKernel>& loaded) {
  for (int unroll : {1, 2, 4, 8, 16}) {
    const std::string name = "copy<" + std::to_string(unroll) + ">";
    const void* entry = reinterpret_cast<const void*>(variant_for(unroll).single);
    loaded.push_back(load_kernel(name.c_str(), entry));
  }
  loaded.push_back(load_kernel("copy_pair", reinterpret_cast<const void*>(copy_pair_kernel)));
}

}  // namespace p2p::kernels
