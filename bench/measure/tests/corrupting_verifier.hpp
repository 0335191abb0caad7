// A verifier for GPU tests: before the usual count it inverts `words` words of the destination
// of the lane from `src` to `dst` (kernels::launch_flip_words), so a test can show that the
// damage is caught for that lane and no other.
#pragma once

#include <cstdint>
#include <memory>

#include "bench/endpoint.hpp"
#include "bench/measure/lane_verifier.hpp"
#include "kernels/pattern.hpp"

namespace p2p::bench::testing {

class CorruptingVerifier final : public LaneVerifier {
 public:
  CorruptingVerifier(Endpoint src, Endpoint dst, std::uint64_t words)
      : src_(src), dst_(dst), words_(words) {}

  void enqueue(const LaneCheck& check) const override {
    if (check.lane.src == src_ && check.lane.dst == dst_)
      kernels::launch_flip_words(check.dst, check.bytes, words_, check.stream);
    count_.enqueue(check);
  }

 private:
  Endpoint src_;
  Endpoint dst_;
  std::uint64_t words_;
  MismatchCounter count_;
};

inline std::shared_ptr<const LaneVerifier> corrupting(Endpoint src, Endpoint dst,
                                                      std::uint64_t words) {
  return std::make_shared<CorruptingVerifier>(src, dst, words);
}

}  // namespace p2p::bench::testing
