#include "nccl/sweep.hpp"

#include <algorithm>
#include <limits>

#include "common/error.hpp"

namespace p2p::nccl {

std::vector<std::uint64_t> sweep_sizes(const SweepSpec& spec) {
  if (spec.min_bytes == 0) throw InputError("--min-bytes: must be at least 1");
  if (spec.min_bytes > spec.max_bytes) {
    throw InputError("--min-bytes: " + std::to_string(spec.min_bytes) + " is above --max-bytes " +
                     std::to_string(spec.max_bytes));
  }
  if (spec.step_factor < 2) throw InputError("--step-factor: must be 2 or more");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = spec.min_bytes; s <= spec.max_bytes;) {
    sizes.push_back(s);
    if (s > std::numeric_limits<std::uint64_t>::max() / spec.step_factor) break;
    s *= spec.step_factor;
  }
  return sizes;
}

std::vector<int> sample_sizes(int iterations, int samples) {
  iterations = std::max(1, iterations);
  samples = std::clamp(samples, 1, iterations);
  std::vector<int> sizes(static_cast<std::size_t>(samples), iterations / samples);
  for (int s = 0; s < iterations % samples; ++s) ++sizes[static_cast<std::size_t>(s)];
  return sizes;
}

}  // namespace p2p::nccl
