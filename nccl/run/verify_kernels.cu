#include "nccl/run/verify_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <string>

#include "common/cuda_check.hpp"

namespace p2p::nccl {

namespace {

constexpr int kThreads = 256;
// Enough blocks to fill any current GPU; the kernels stride over the rest.
constexpr std::uint64_t kMaxBlocks = 4096;

unsigned blocks_for(std::uint64_t count) {
  return static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min(kMaxBlocks, (count + kThreads - 1) / kThreads)));
}

template <class T>
__device__ T from_int(int v);
template <>
__device__ float from_int<float>(int v) {
  return static_cast<float>(v);
}
template <>
__device__ __nv_bfloat16 from_int<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}
template <>
__device__ __half from_int<__half>(int v) {
  return __int2half_rn(v);
}

__device__ float to_float(float v) { return v; }
__device__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ float to_float(__half v) { return __half2float(v); }

template <class T>
__global__ void fill_input_kernel(T* p, std::uint64_t count, int rank, int nranks) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    p[i] = from_int<T>(pattern::input_value(rank, i, nranks));
  }
}

template <class T>
__global__ void fill_constant_kernel(T* p, std::uint64_t count, int value) {
  const T v = from_int<T>(value);
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    p[i] = v;
  }
}

template <class T>
__global__ void count_wrong_kernel(const T* p, std::uint64_t count, pattern::Expectation e,
                                   unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    // Exact comparison: every expected value is an integer the type represents exactly.
    if (to_float(p[i]) != static_cast<float>(pattern::expected_value(e, i))) ++mine;
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

template <class Launch>
void dispatch(DataType t, Launch&& launch) {
  switch (t) {
    case DataType::kFloat32: launch(float{}); break;
    case DataType::kBfloat16: launch(__nv_bfloat16{}); break;
    case DataType::kFloat16: launch(__half{}); break;
  }
}

template <class T>
void preload_for_type(const std::string& type, std::vector<kernels::LoadedKernel>& loaded) {
  const auto load = [&](const char* name, const void* entry) {
    loaded.push_back(kernels::load_kernel((name + ("<" + type + ">")).c_str(), entry));
  };
  load("fill_input", reinterpret_cast<const void*>(fill_input_kernel<T>));
  load("fill_constant", reinterpret_cast<const void*>(fill_constant_kernel<T>));
  load("count_wrong", reinterpret_cast<const void*>(count_wrong_kernel<T>));
}

}  // namespace

std::vector<kernels::LoadedKernel> preload_verify_kernels() {
  std::vector<kernels::LoadedKernel> loaded;
  preload_for_type<float>("float", loaded);
  preload_for_type<__nv_bfloat16>("bfloat16", loaded);
  preload_for_type<__half>("half", loaded);
  return loaded;
}

void fill_input(void* ptr, DataType t, std::uint64_t count, int rank, int nranks,
                cudaStream_t stream) {
  if (count == 0) return;
  dispatch(t, [&](auto tag) {
    using T = decltype(tag);
    fill_input_kernel<T>
        <<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(ptr), count, rank, nranks);
  });
  P2P_CHECK(cudaGetLastError());
}

void fill_sentinel(void* ptr, DataType t, std::uint64_t count, cudaStream_t stream) {
  if (count == 0) return;
  dispatch(t, [&](auto tag) {
    using T = decltype(tag);
    fill_constant_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(ptr), count,
                                                                        pattern::kSentinel);
  });
  P2P_CHECK(cudaGetLastError());
}

void count_wrong(const void* ptr, DataType t, std::uint64_t count, const pattern::Expectation& e,
                 unsigned long long* wrong, cudaStream_t stream) {
  if (count == 0) return;
  dispatch(t, [&](auto tag) {
    using T = decltype(tag);
    count_wrong_kernel<T>
        <<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(ptr), count, e, wrong);
  });
  P2P_CHECK(cudaGetLastError());
}

}  // namespace p2p::nccl
