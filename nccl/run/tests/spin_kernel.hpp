// Test-only: a kernel that holds a stream until the host sets a flag (or a time limit passes,
// so a failing test cannot leave the GPU busy forever). Used to make a collective miss its
// deadline on purpose.
#pragma once

#include <cuda_runtime_api.h>

namespace p2p::nccl::testing {

// `flag` is page-locked, mapped host memory; the kernel returns once *flag != 0.
void launch_spin(volatile int* flag, unsigned long long max_ns, cudaStream_t stream);

}  // namespace p2p::nccl::testing
