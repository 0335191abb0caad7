#include "bench/measure/sample_enqueue.hpp"

#include "common/cuda_check.hpp"
#include "common/cuda_resources.hpp"

namespace p2p::bench {

void SampleEnqueuer::enqueue_sample(LaneRuns& lanes, cudaEvent_t total_end, Latch& latch) const {
  LaneRun& first = *lanes.front();
  if (plan_.fused_pair) {
    enqueue_lane(*lanes[0], lanes[1].get(), nullptr, latch);
  } else {
    for (auto& r : lanes) enqueue_lane(*r, nullptr, r == lanes.front() ? nullptr : &first, latch);
  }
  if (lanes.size() > 1) {
    cuda::DeviceGuard on(dev(first.lane.issuer));
    for (std::size_t i = 1; i < lanes.size(); ++i) {
      P2P_CHECK(cudaStreamWaitEvent(first.stream.get(), lanes[i]->end.get(), 0));
    }
    P2P_CHECK(cudaEventRecord(total_end, first.stream.get()));
  }
  // After total_end in every stream's order, so the tails never count in a figure.
  for (auto& r : lanes) {
    cuda::DeviceGuard on(dev(r->lane.issuer));
    enqueue_copies(*r, nullptr, plan_.tail_copies);
  }
}

// `partner`: the second lane of a fused pair, copied by the same kernels on r's stream; its
// events are recorded there too, so both directions report the same span.
// `leader`: the first lane, whose start every other lane waits for, so that all lanes of a
// sample start from one instant (the first lane's) and the total spans exactly that run.
void SampleEnqueuer::enqueue_lane(LaneRun& r, LaneRun* partner, const LaneRun* leader,
                                  Latch& latch) const {
  cuda::DeviceGuard on(dev(r.lane.issuer));
  cudaStream_t s = r.stream.get();
  latch.hold(s, latch_timeout_ns_);
  enqueue_copies(r, partner, plan_.lead_in_copies);
  if (leader != nullptr) P2P_CHECK(cudaStreamWaitEvent(s, leader->start.get(), 0));
  P2P_CHECK(cudaEventRecord(r.start.get(), s));
  if (partner != nullptr) P2P_CHECK(cudaEventRecord(partner->start.get(), s));
  enqueue_copies(r, partner, plan_.copies);
  r.copier->join(s);
  P2P_CHECK(cudaEventRecord(r.end.get(), s));
  if (partner != nullptr) P2P_CHECK(cudaEventRecord(partner->end.get(), s));
}

// `count` copies of the lane on its stream (the issuer current), as its method enqueues them.
// Every copy moves the same source into the same destination, so untimed lead-in and tail
// copies leave the data as the timed batch does and verification is unchanged.
void SampleEnqueuer::enqueue_copies(LaneRun& r, LaneRun* partner, int count) const {
  const CopyEnds ends{r.src.get(), r.dst.get()};
  CopyEnds partner_ends;
  if (partner != nullptr) partner_ends = {partner->src.get(), partner->dst.get()};
  r.copier->enqueue_copies(ends, partner != nullptr ? &partner_ends : nullptr, count,
                           r.stream.get());
}

}  // namespace p2p::bench
