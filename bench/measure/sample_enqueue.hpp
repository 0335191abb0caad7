// Enqueues one bandwidth sample on the lanes' streams, everything behind the latch: per lane
// the latch hold, the untimed lead-in, the start event, the timed batch (each lane's copies as
// its method's copier enqueues them, joined back from any stream of the copier's own), the end
// event; then the sample's total end on the first lane's stream and the untimed tails. Nothing
// here waits for the GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bench/measure/batch_plan.hpp"
#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/lane_setup.hpp"
#include "bench/placement.hpp"

namespace p2p::bench {

class SampleEnqueuer {
 public:
  SampleEnqueuer(GpuPlacement placement, const BatchPlan& plan, std::uint64_t latch_timeout_ns)
      : place_(std::move(placement)), plan_(plan), latch_timeout_ns_(latch_timeout_ns) {}

  // `latch` is armed; the caller releases it, also when this throws half-way. `total_end` is
  // recorded (several lanes only) on the first lane's stream once every lane's end is reached.
  void enqueue_sample(LaneRuns& lanes, cudaEvent_t total_end, Latch& latch) const;

 private:
  void enqueue_lane(LaneRun& r, LaneRun* partner, const LaneRun* leader, Latch& latch) const;
  void enqueue_copies(LaneRun& r, LaneRun* partner, int count) const;
  int dev(int gpu) const { return place_.device(gpu); }

  GpuPlacement place_;
  BatchPlan plan_;
  std::uint64_t latch_timeout_ns_;
};

}  // namespace p2p::bench
