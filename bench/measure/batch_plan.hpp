// How a bandwidth sample is laid out, decided from the lanes and the size alone (no CUDA):
// copies per timed batch, whether two lanes run as one fused kernel, and the untimed padding of
// each lane. What each lane's method allows comes from its traits (methods/method_table.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "bench/measure/lane.hpp"

namespace p2p::bench {

struct BatchPlan {
  int copies = 0;           // per timed batch, per lane
  bool fused_pair = false;  // two lanes of one issuer whose method fuses pairs: one kernel
  bool padded = false;      // each lane under load: untimed copies before and after its batch
  int lead_in_copies = 0;   // untimed, before each lane's start event
  int tail_copies = 0;      // untimed, after the sample's last end event
};

// `copies_per_batch` 0: sizes.hpp's copies_per_batch(bytes); a lane's method may cap it further
// (a staged lane at kStagedMaxChunksPerBatch chunks). `each_lane_under_load` pads multi-lane
// samples, except a fused pair (one kernel keeps both directions busy for its whole run) and
// lanes whose method cannot be padded (staged lanes pipeline through shared slots and are never
// bidirectional). Throws std::invalid_argument without lanes.
BatchPlan plan_batch(const std::vector<Lane>& lanes, std::uint64_t bytes, int copies_per_batch,
                     bool each_lane_under_load);

}  // namespace p2p::bench
