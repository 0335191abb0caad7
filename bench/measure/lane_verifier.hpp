// After each sample the GPU that owns a lane's destination checks it against the pattern its
// source held. A LaneVerifier is that check for one lane; measure_bandwidth takes it from
// MeasureOptions::verifier, so a test can stand in one that damages a destination first and
// show that exactly that lane fails.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "bench/measure/lane.hpp"

namespace p2p::bench {

struct LaneCheck {
  Lane lane;            // GPU ids as the case names them (possibly logical)
  void* dst = nullptr;  // the lane's destination buffer
  std::uint64_t bytes = 0;
  std::uint32_t seed = 0;  // the pattern (kernels/pattern.hpp) the destination must hold
  cudaStream_t stream{};   // on the verifying GPU, whose device is current
  unsigned long long* scratch = nullptr;      // one counter in the verifying GPU's memory
  unsigned long long* wrong_words = nullptr;  // pinned host: the answer
};

class LaneVerifier {
 public:
  virtual ~LaneVerifier() = default;
  // Enqueues the check on check.stream. Once that stream is done, *check.wrong_words holds the
  // number of 32-bit words of the destination that differ from the pattern.
  virtual void enqueue(const LaneCheck& check) const = 0;
};

// The default: the verifying GPU counts the mismatching words itself, so no sample's bytes
// cross to the host to be checked.
class MismatchCounter final : public LaneVerifier {
 public:
  void enqueue(const LaneCheck& check) const override;
};

}  // namespace p2p::bench
