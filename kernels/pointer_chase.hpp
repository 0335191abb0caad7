// Latency: one GPU thread follows a chain of pointers, so each load can only start when the
// previous one has returned. Time / loads is the latency of one dependent load from wherever
// the chain lives: this GPU's memory, a peer's (through peer access) or pinned host memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace p2p::kernels {

// Writes the chain into `buffer`: the node at offset i * stride_bytes holds the address of
// node (i + 1) % nodes. Addresses are unified (UVA) addresses, valid on every GPU that can
// reach the buffer. stride_bytes >= 8 and a multiple of 8; buffer 8-byte aligned.
void launch_build_chain(void* buffer, std::size_t nodes, std::size_t stride_bytes,
                        cudaStream_t stream);

// Follows `loads` pointers from `start` and stores the node reached in *end (device or mapped
// host memory), which lets the caller check that the chain was walked, not skipped.
// Loads bypass the L1 and re-fetch cached system-memory lines (ld.global.cv), so no load is
// served from a cache the walk itself warmed.
void launch_pointer_chase(const void* start, std::uint64_t loads, const void** end,
                          cudaStream_t stream);

}  // namespace p2p::kernels
