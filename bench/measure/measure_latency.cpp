// The latency half of measure.hpp: the sample loop around a latency method's walk (its
// LatencyWalker: for the pointer chase, methods/pointer_chase.cpp). Per sample: start event,
// the walk, end event on the issuer's stream, wait with a deadline, check where the walk ended.
#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/measure.hpp"
#include "common/cuda_check.hpp"
#include "common/error.hpp"

namespace p2p::bench {

Measured measure_latency(const std::vector<Lane>& lanes, std::uint64_t /*bytes*/,
                         const MeasureOptions& opt) {
  if (lanes.size() != 1 || transfer_method(lanes[0].method).traits().metric != Metric::kLatency) {
    throw std::invalid_argument("latency cases have exactly one lane of a latency method");
  }
  if (opt.samples < 1 || opt.latency_loads == 0)
    throw std::invalid_argument("latency needs samples and loads");
  const Lane& l = lanes[0];
  const std::unique_ptr<LatencyWalker> walker = transfer_method(l.method).make_walker(l, opt);

  const int issuer = opt.placement.device(l.issuer);
  cuda::DeviceGuard on(issuer);
  auto stream = cuda::make_stream(issuer);
  auto start = cuda::make_event(issuer);
  auto end = cuda::make_event(issuer);

  Measured m;
  m.lanes.resize(1);
  m.lanes[0].verified_by = "gpu" + std::to_string(l.issuer);
  m.loads_per_sample = opt.latency_loads;
  m.stride_bytes = opt.latency_stride_bytes;
  for (int s = 0; s < opt.warmup_samples + opt.samples; ++s) {
    P2P_CHECK(cudaEventRecord(start.get(), stream.get()));
    walker->enqueue_walk(stream.get());
    P2P_CHECK(cudaEventRecord(end.get(), stream.get()));
    wait_until_done(stream.get(), deadline_after(opt.timeout_s), walker->activity());
    m.lanes[0].verified_samples += 1;
    if (!walker->walked_correctly()) m.lanes[0].bad_samples += 1;
    if (s >= opt.warmup_samples) {
      float ms = 0;
      P2P_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
      m.latency_ns.push_back(static_cast<double>(ms) * 1e6 /
                             static_cast<double>(opt.latency_loads));
    }
  }
  return m;
}

}  // namespace p2p::bench
