// Message sizes to measure and how a timed series splits into samples. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace p2p::nccl {

struct SweepSpec {
  std::uint64_t min_bytes = 8;
  std::uint64_t max_bytes = 1ull << 30;  // 1 GiB, as nccl-tests' usual -e 1G
  std::uint64_t step_factor = 2;         // nccl-tests' -f
  // The send/recv pair matrix (n x n cases per size) at every size; by default at the largest
  // only, as bench measures its pair matrices: on 8 GPUs a sweep of every pair is 64 cases a size.
  bool pairs_every_size = false;
};

// min, min*f, min*f^2, ... up to and including max. InputError (naming the option) when
// min is 0, min > max or the factor is below 2.
std::vector<std::uint64_t> sweep_sizes(const SweepSpec& spec);

// How `iterations` timed operations split into samples: as even as possible, larger first,
// never an empty sample (so at most `iterations` samples).
std::vector<int> sample_sizes(int iterations, int samples);

}  // namespace p2p::nccl
