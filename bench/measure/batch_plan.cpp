#include "bench/measure/batch_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "bench/sizes.hpp"

namespace p2p::bench {

BatchPlan plan_batch(const std::vector<Lane>& lanes, std::uint64_t bytes,
                     int copies_per_batch_option, bool each_lane_under_load) {
  if (lanes.empty()) throw std::invalid_argument("bandwidth case without lanes");
  BatchPlan p;
  p.copies = copies_per_batch_option > 0 ? copies_per_batch_option : copies_per_batch(bytes);
  bool can_pad = true;
  for (const Lane& l : lanes) {
    const TransferMethod& method = transfer_method(l.method);
    if (const int most = method.max_copies_per_batch(bytes); most > 0)
      p.copies = std::min(p.copies, most);
    can_pad = can_pad && method.traits().can_pad;
  }
  p.fused_pair = lanes.size() == 2 && lanes[0].method == lanes[1].method &&
                 transfer_method(lanes[0].method).traits().fuses_pairs &&
                 lanes[0].issuer == lanes[1].issuer;
  p.padded = each_lane_under_load && lanes.size() > 1 && !p.fused_pair && can_pad;
  if (p.padded) {
    p.lead_in_copies = std::max(1, p.copies / 4);
    p.tail_copies = p.copies;
  }
  return p;
}

}  // namespace p2p::bench
