// Fill and check kernels for the verification pass. Launch on the caller's stream with the
// caller's device current; every launch is checked.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "kernels/preload.hpp"
#include "nccl/dtype.hpp"
#include "nccl/pattern.hpp"

namespace p2p::nccl {

// Loads every kernel of this file into the current device's context (kernels/preload.hpp says
// why), and describes them: "fill_input<float>", ... With CUDA's lazy module loading a kernel
// is otherwise loaded at its first launch, and that load waits for kernels already running: a
// first launch queued behind a stuck collective would block the host thread before any
// deadline is checked.
std::vector<kernels::LoadedKernel> preload_verify_kernels();

// ptr[i] = pattern::input_value(rank, i, nranks) for i < count.
void fill_input(void* ptr, DataType t, std::uint64_t count, int rank, int nranks,
                cudaStream_t stream);
// ptr[i] = pattern::kSentinel for i < count.
void fill_sentinel(void* ptr, DataType t, std::uint64_t count, cudaStream_t stream);
// Adds to *wrong (device memory) the number of i < count with ptr[i] != expected_value(e, i).
void count_wrong(const void* ptr, DataType t, std::uint64_t count, const pattern::Expectation& e,
                 unsigned long long* wrong, cudaStream_t stream);

}  // namespace p2p::nccl
