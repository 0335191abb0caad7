// Study, not part of p2pcheck: why nvbandwidth's bidirectional host<->GPU SM figure is about
// 0.7% above p2pcheck's. Copies 512 MiB each way between pinned host memory and the GPU with
// kernels shaped like each tool's and prints GB/s each way (median, min, max over 8 rounds,
// the variants interleaved in every round so a slow minute of the platform lands on all).
//   nvcc -O3 -arch=sm_90 -o bidir_sm_passes scripts/studies/bidir_sm_passes.cu && ./bidir_sm_passes
// Variants:
//   pair:        p2pcheck's copy_pair kernel: even warps one direction, odd warps the other, a
//                grid covering the data, each 16-byte vector copied once per launch;
//   pair cg:     the same with L2-only loads and stores;
//   pair x4:     a quarter of the grid, each thread copying four vectors in turn;
//   split x1:    one host and one device buffer, warp parity picks the direction, so the two
//                directions interleave in 512-byte runs of the same pages; one pass per launch;
//   split x16:   the same, each thread copying its vector 16 times in a row inside the launch
//                (nvbandwidth's split-warp kernel at its default loop count).
// Byte counts: what crossed the link each way in the timed launches.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                          \
  do {                                                    \
    cudaError_t e = (x);                                  \
    if (e != cudaSuccess) {                               \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      std::exit(1);                                       \
    }                                                     \
  } while (0)

template <int kPerThread, bool kCg>
__global__ void pair(uint4* d0, const uint4* s0, uint4* d1, const uint4* s1, size_t n) {
  const size_t t = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t w = t / 32;
  const bool second = (w & 1) != 0;
  uint4* d = second ? d1 : d0;
  const uint4* s = second ? s1 : s0;
  const size_t pairs = static_cast<size_t>(gridDim.x) * blockDim.x / 64;
  for (int k = 0; k < kPerThread; ++k) {
    const size_t i = (w / 2 + k * pairs) * 32 + threadIdx.x % 32;
    if (i >= n) continue;
    if (kCg)
      __stcg(d + i, __ldcg(s + i));
    else
      d[i] = s[i];
  }
}

__global__ void split(uint4* a, uint4* b, unsigned passes) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  uint4* d = (i / 32) & 1 ? a + i : b + i;
  uint4* s = (i / 32) & 1 ? b + i : a + i;
  for (unsigned p = 0; p < passes; ++p) __stcg(d, __ldcg(s));
}

int main() {
  const size_t bytes = 512ull << 20;
  const size_t n = bytes / 16;
  void *h0, *h1, *g0, *g1;
  CHECK(cudaHostAlloc(&h0, bytes, 0));
  CHECK(cudaHostAlloc(&h1, bytes, 0));
  CHECK(cudaMalloc(&g0, bytes));
  CHECK(cudaMalloc(&g1, bytes));
  std::memset(h0, 1, bytes);
  std::memset(h1, 2, bytes);
  CHECK(cudaMemset(g0, 3, bytes));
  CHECK(cudaMemset(g1, 4, bytes));
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto *hd0 = static_cast<uint4*>(h0), *hd1 = static_cast<uint4*>(h1);
  auto *gd0 = static_cast<uint4*>(g0), *gd1 = static_cast<uint4*>(g1);
  const auto blocks = static_cast<unsigned>(2 * n / 1024);  // 1024 threads, one vector each way

  struct Variant {
    const char* name;
    int launches;
    double bytes_each_way_per_launch;
  };
  const Variant variants[] = {{"pair", 8, double(bytes)},
                              {"pair cg", 8, double(bytes)},
                              {"pair x4", 8, double(bytes)},
                              {"split x1", 8, bytes / 2.0},
                              {"split x16", 1, bytes / 2.0 * 16}};
  const int kVariants = sizeof(variants) / sizeof(variants[0]);
  auto launch = [&](int v) {
    switch (v) {
      case 0: pair<1, false><<<blocks, 1024, 0, st>>>(gd0, hd0, hd1, gd1, n); break;
      case 1: pair<1, true><<<blocks, 1024, 0, st>>>(gd0, hd0, hd1, gd1, n); break;
      case 2: pair<4, true><<<blocks / 4, 1024, 0, st>>>(gd0, hd0, hd1, gd1, n); break;
      case 3: split<<<static_cast<unsigned>(n / 1024), 1024, 0, st>>>(gd0, hd0, 1); break;
      default: split<<<static_cast<unsigned>(n / 1024), 1024, 0, st>>>(gd0, hd0, 16); break;
    }
  };
  std::vector<std::vector<double>> gbps(kVariants);
  for (int round = 0; round < 8; ++round) {
    for (int v = 0; v < kVariants; ++v) {
      launch(v);  // warm-up: the first launch of a round is not timed
      CHECK(cudaEventRecord(e0, st));
      for (int l = 0; l < variants[v].launches; ++l) launch(v);
      CHECK(cudaEventRecord(e1, st));
      CHECK(cudaStreamSynchronize(st));
      CHECK(cudaGetLastError());
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      gbps[v].push_back(variants[v].bytes_each_way_per_launch * variants[v].launches / (ms * 1e6));
    }
  }
  for (int v = 0; v < kVariants; ++v) {
    std::vector<double> x = gbps[v];
    std::sort(x.begin(), x.end());
    std::printf("%-10s median %.2f  min %.2f  max %.2f GB/s each way\n", variants[v].name,
                x[x.size() / 2], x.front(), x.back());
  }
}
