#include "kernels/copy.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"

namespace p2p::kernels {
namespace {

// Thread t copies vectors t, t + stride, t + 2*stride, ... In each step it issues kUnroll
// independent 16-byte loads before the first store, so enough requests are in flight to
// cover PCIe/NVLink latency (about 1 µs) as well as HBM latency.
template <int kUnroll>
__global__ void copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src,
                            std::size_t vectors, std::uint32_t* __restrict__ dst_tail,
                            const std::uint32_t* __restrict__ src_tail, unsigned tail_words) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = src[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) dst[i + u * stride] = v[u];
  }
  for (; i < vectors; i += stride) dst[i] = src[i];
  // The 0-3 words after the last whole vector.
  if (blockIdx.x == 0 && threadIdx.x < tail_words) dst_tail[threadIdx.x] = src_tail[threadIdx.x];
}

template <int kUnroll>
void launch(int blocks, int threads, cudaStream_t stream, uint4* dst, const uint4* src,
            std::size_t vectors, std::uint32_t* dst_tail, const std::uint32_t* src_tail,
            unsigned tail_words) {
  copy_kernel<kUnroll><<<blocks, threads, 0, stream>>>(dst, src, vectors, dst_tail, src_tail,
                                                        tail_words);
}

using LaunchFn = void (*)(int, int, cudaStream_t, uint4*, const uint4*, std::size_t,
                          std::uint32_t*, const std::uint32_t*, unsigned);
using KernelFn = void (*)(uint4*, const uint4*, std::size_t, std::uint32_t*,
                          const std::uint32_t*, unsigned);

struct Variant {
  int unroll;
  LaunchFn launch;
  KernelFn kernel;
};

const Variant& variant_for(int unroll) {
  static const Variant kVariants[] = {
      {1, launch<1>, copy_kernel<1>},   {2, launch<2>, copy_kernel<2>},
      {4, launch<4>, copy_kernel<4>},   {8, launch<8>, copy_kernel<8>},
      {16, launch<16>, copy_kernel<16>},
  };
  for (const auto& v : kVariants) {
    if (v.unroll == unroll) return v;
  }
  throw std::invalid_argument("copy kernel: unroll " + std::to_string(unroll) +
                              " is not one of 1, 2, 4, 8, 16");
}

}  // namespace

CopyShape resolve_copy_shape(int device, const CopyShape& wanted) {
  CopyShape shape = wanted;
  const Variant& v = variant_for(shape.unroll);
  if (shape.threads_per_block <= 0 || shape.threads_per_block > 1024 ||
      shape.threads_per_block % 32 != 0) {
    throw std::invalid_argument("copy kernel: threads per block must be a multiple of 32 up to 1024");
  }
  if (shape.blocks > 0) return shape;
  int sms = 0;
  P2P_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int current = 0;
  P2P_CHECK(cudaGetDevice(&current));
  if (current != device) P2P_CHECK(cudaSetDevice(device));
  int per_sm = 0;
  const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, v.kernel, shape.threads_per_block, 0);
  if (current != device) P2P_CHECK(cudaSetDevice(current));
  P2P_CHECK(e);
  shape.blocks = sms * std::max(per_sm, 1);
  return shape;
}

void launch_copy(void* dst, const void* src, std::size_t bytes, const CopyShape& shape,
                 cudaStream_t stream) {
  if (bytes % 4 != 0) throw std::invalid_argument("copy kernel: size must be a multiple of 4 bytes");
  if (reinterpret_cast<std::uintptr_t>(dst) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(src) % 16 != 0) {
    throw std::invalid_argument("copy kernel: buffers must be 16-byte aligned");
  }
  if (shape.blocks <= 0) throw std::invalid_argument("copy kernel: resolve the shape before launching");
  if (bytes == 0) return;
  const Variant& v = variant_for(shape.unroll);
  const std::size_t vectors = bytes / 16;
  const unsigned tail_words = static_cast<unsigned>((bytes % 16) / 4);
  // A 4 KiB copy needs one block, not a full grid: extra blocks only add launch latency.
  const std::size_t needed = (vectors + shape.threads_per_block - 1) / shape.threads_per_block;
  const int blocks = static_cast<int>(
      std::max<std::size_t>(1, std::min<std::size_t>(needed, static_cast<std::size_t>(shape.blocks))));
  auto* d = static_cast<uint4*>(dst);
  const auto* s = static_cast<const uint4*>(src);
  v.launch(blocks, shape.threads_per_block, stream, d, s, vectors,
           reinterpret_cast<std::uint32_t*>(d + vectors),
           reinterpret_cast<const std::uint32_t*>(s + vectors), tail_words);
  P2P_CHECK(cudaGetLastError());
}

}  // namespace p2p::kernels
