#include "bench/measure/methods/transfer_method.hpp"

#include <stdexcept>

#include "bench/measure/measure.hpp"

namespace p2p::bench {

std::unique_ptr<LaneCopier> TransferMethod::make_copier(const Lane& /*lane*/,
                                                        const CopierSetup& /*setup*/) const {
  throw std::invalid_argument(std::string(traits_.word) + " lane in a bandwidth case");
}

std::unique_ptr<LatencyWalker> TransferMethod::make_walker(
    const Lane& /*lane*/, const MeasureOptions& /*options*/) const {
  throw std::invalid_argument(std::string(traits_.word) + " lane in a latency case");
}

std::string TransferMethod::verification_failure(const LaneSamples& s) const {
  return "verification failed: " + std::to_string(s.bad_words) + " bad words in " +
         std::to_string(s.bad_samples) + " of " + std::to_string(s.verified_samples) +
         " samples (checked by " + s.verified_by + ")";
}

}  // namespace p2p::bench
