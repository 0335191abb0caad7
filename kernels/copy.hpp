// The SM copy: a vectorised (16-byte) grid-stride kernel sized to keep every SM of the issuing
// GPU busy. The same kernel measures a GPU reading a peer's memory, writing into a peer's
// memory, reading/writing mapped host memory, and copying within its own memory: only the
// pointers differ.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace p2p::kernels {

// How the copy kernel is launched. `blocks` 0 means "fill the device": SMs x resident blocks.
struct CopyShape {
  int blocks = 0;
  int threads_per_block = 512;  // a multiple of 64
  int unroll = 4;               // 16-byte loads in flight per thread per step: 1, 2, 4, 8 or 16
};

// The shape with `blocks` resolved for `device`: SM count x blocks that fit per SM at
// `wanted.threads_per_block` (the occupancy calculator decides), unless wanted.blocks > 0.
CopyShape resolve_copy_shape(int device, const CopyShape& wanted);

// Copies `bytes` (a multiple of 4) from `src` to `dst` on `stream`, whose device must be
// current. Both pointers 16-byte aligned and reachable from that device (own memory, a peer
// with access enabled, or mapped pinned host memory). The last bytes % 16 are copied as
// 32-bit words. Small copies launch no more blocks than they need.
void launch_copy(void* dst, const void* src, std::size_t bytes, const CopyShape& shape,
                 cudaStream_t stream);

// Two copies of `bytes` at once in one kernel, alternate warps on each: both directions of a
// bidirectional SM copy share every SM for the whole run. Same rules as launch_copy, except
// that the grid covers the data (one vector per thread, `threads_per_block` per block), so
// `blocks` and `unroll` of the shape apply to single copies only.
void launch_copy_pair(void* dst0, const void* src0, void* dst1, const void* src1, std::size_t bytes,
                      const CopyShape& shape, cudaStream_t stream);

}  // namespace p2p::kernels
