#include "bench/measure/lane_verifier.hpp"

#include "common/cuda_check.hpp"
#include "kernels/pattern.hpp"

namespace p2p::bench {

void MismatchCounter::enqueue(const LaneCheck& check) const {
  P2P_CHECK(cudaMemsetAsync(check.scratch, 0, sizeof(*check.scratch), check.stream));
  kernels::launch_count_mismatches(check.dst, check.bytes, check.seed, check.scratch, check.stream);
  P2P_CHECK(cudaMemcpyAsync(check.wrong_words, check.scratch, sizeof(*check.scratch),
                            cudaMemcpyDeviceToHost, check.stream));
}

}  // namespace p2p::bench
