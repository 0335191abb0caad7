#include "kernels/pointer_chase.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "kernels/preload.hpp"

namespace p2p::kernels {
namespace {

__global__ void build_chain_kernel(char* buffer, std::size_t nodes, std::size_t stride_bytes) {
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nodes;
       i += step) {
    const std::size_t next = i + 1 == nodes ? 0 : i + 1;
    *reinterpret_cast<unsigned long long*>(buffer + i * stride_bytes) =
        reinterpret_cast<unsigned long long>(buffer + next * stride_bytes);
  }
}

__global__ void chase_kernel(const void* start, std::uint64_t loads, const void** end) {
  auto p = reinterpret_cast<const unsigned long long*>(start);
  for (std::uint64_t i = 0; i < loads; ++i) {
    p = reinterpret_cast<const unsigned long long*>(__ldcv(p));
  }
  *end = p;
}

}  // namespace

void launch_build_chain(void* buffer, std::size_t nodes, std::size_t stride_bytes,
                        cudaStream_t stream) {
  if (stride_bytes < 8 || stride_bytes % 8 != 0) {
    throw std::invalid_argument("pointer chase: stride must be a multiple of 8 bytes");
  }
  if (reinterpret_cast<std::uintptr_t>(buffer) % 8 != 0) {
    throw std::invalid_argument("pointer chase: buffer must be 8-byte aligned");
  }
  if (nodes == 0) return;
  const std::size_t blocks = std::min<std::size_t>((nodes + 255) / 256, 4096);
  build_chain_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(static_cast<char*>(buffer),
                                                                        nodes, stride_bytes);
  P2P_CHECK(cudaGetLastError());
}

void launch_pointer_chase(const void* start, std::uint64_t loads, const void** end,
                          cudaStream_t stream) {
  chase_kernel<<<1, 1, 0, stream>>>(start, loads, end);
  P2P_CHECK(cudaGetLastError());
}

void preload_pointer_chase_kernels(std::vector<LoadedKernel>& loaded) {
  loaded.push_back(load_kernel("build_chain", reinterpret_cast<const void*>(build_chain_kernel)));
  loaded.push_back(load_kernel("pointer_chase", reinterpret_cast<const void*>(chase_kernel)));
}

}  // namespace p2p::kernels
