// The data every rank sends and the value each output element must then hold. One definition
// compiled for both host (CPU tests, which check it against a brute-force host reference) and
// device (the fill and verify kernels), so the check needs no copy of the data to the host.
//
// Inputs are small positive integers with n * max <= 256: every partial sum NCCL can form in
// any order is an integer <= 256, which float32, float16 (11-bit significand) and bfloat16
// (8-bit significand) all represent exactly, so verification is an exact comparison.
#pragma once

#include <cstdint>

#include "nccl/collective.hpp"

#if defined(__CUDACC__)
#define P2P_HOST_DEVICE __host__ __device__
#else
#define P2P_HOST_DEVICE
#endif

namespace p2p::nccl::pattern {

// Written into every buffer before the operation: never a valid result (results are >= 1),
// so an element NCCL failed to write is counted as wrong.
constexpr int kSentinel = -1;
constexpr int kLargestExactSum = 256;

P2P_HOST_DEVICE inline int value_range(int nranks) {
  return nranks >= kLargestExactSum ? 1 : kLargestExactSum / (nranks < 1 ? 1 : nranks);
}

// Element `index` of rank `rank`'s input. The two multipliers are coprime with most ranges so
// neighbouring elements and neighbouring ranks differ (a shifted or swapped slice is caught).
P2P_HOST_DEVICE inline int input_value(int rank, std::uint64_t index, int nranks) {
  const std::uint64_t range = static_cast<std::uint64_t>(value_range(nranks));
  return 1 + static_cast<int>((index * 7u + static_cast<std::uint64_t>(rank) * 13u) % range);
}

// What one rank's output must hold after one operation.
struct Expectation {
  Collective collective = Collective::kAllReduce;
  int nranks = 1;
  int rank = 0;             // the rank whose output is checked
  std::uint64_t count = 0;  // CollectiveShape::count
  int root = 0;             // broadcast
  int peer = 0;             // the sender for kSendRecvPair
};

P2P_HOST_DEVICE inline int expected_value(const Expectation& e, std::uint64_t index) {
  const int n = e.nranks;
  switch (e.collective) {
    case Collective::kAllReduce: {
      int sum = 0;
      for (int r = 0; r < n; ++r) sum += input_value(r, index, n);
      return sum;
    }
    case Collective::kAllGather:
      return input_value(static_cast<int>(index / e.count), index % e.count, n);
    case Collective::kReduceScatter: {
      int sum = 0;
      for (int r = 0; r < n; ++r)
        sum += input_value(r, static_cast<std::uint64_t>(e.rank) * e.count + index, n);
      return sum;
    }
    case Collective::kBroadcast: return input_value(e.root, index, n);
    case Collective::kAllToAll:
      // Slice j of my output is slice `rank` of rank j's input.
      return input_value(static_cast<int>(index / e.count),
                         static_cast<std::uint64_t>(e.rank) * e.count + index % e.count, n);
    case Collective::kSendRecvRing: return input_value((e.rank - 1 + n) % n, index, n);
    case Collective::kSendRecvPair: return input_value(e.peer, index, n);
  }
  return kSentinel;
}

}  // namespace p2p::nccl::pattern
