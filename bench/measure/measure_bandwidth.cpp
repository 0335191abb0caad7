// The bandwidth half of measure.hpp: the sample loop. What a case holds comes from
// lane_setup.hpp (each lane's copier from its method, methods/method_table.hpp), the order of
// the enqueued work from sample_enqueue.hpp and the check of each destination from the
// LaneVerifier. One BandwidthRun owns everything a (lanes, size) needs; its destructor frees it
// all on the right GPUs, so a case that throws leaves the process clean.
#include <memory>

#include "bench/measure/batch_plan.hpp"
#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/lane_setup.hpp"
#include "bench/measure/lane_verifier.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/sample_enqueue.hpp"
#include "common/cuda_check.hpp"
#include "common/error.hpp"
#include "kernels/pattern.hpp"

namespace p2p::bench {
namespace {

constexpr std::uint32_t kPoisonSeed = 0xA5A5A5A5u;

double elapsed_s(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  P2P_CHECK(cudaEventElapsedTime(&ms, a, b));
  return static_cast<double>(ms) / 1e3;
}

class BandwidthRun {
 public:
  BandwidthRun(const std::vector<Lane>& lanes, std::uint64_t bytes, const MeasureOptions& opt)
      : bytes_(bytes),
        opt_(opt),
        plan_(plan_batch(lanes, bytes, opt.copies_per_batch, opt.each_lane_under_load)),
        enqueuer_(opt.placement, plan_, opt.latch_timeout_ns),
        verifier_(opt.verifier ? opt.verifier : std::make_shared<MismatchCounter>()),
        peers_(enable_peer_access(lanes, opt.placement)),
        utility_(opt.placement),
        lanes_(set_up_lanes(lanes, bytes, plan_, opt, utility_)),
        counts_(cuda::make_pinned_host(sizeof(unsigned long long) * lanes_.size())),
        total_end_(cuda::make_event(dev(lanes_.front()->lane.issuer))) {}

  int copies() const { return plan_.copies; }

  void sample(std::uint32_t index, bool timed, Measured& out) {
    prepare(index);
    latch_.arm();
    try {
      enqueuer_.enqueue_sample(lanes_, total_end_.get(), latch_);
    } catch (...) {
      // Let whatever was queued drain now rather than after the latch's own timeout: the
      // buffers are freed (and their GPUs synchronised) while the exception unwinds.
      latch_.release();
      throw;
    }
    latch_.release();
    const Deadline deadline = deadline_after(opt_.timeout_s);
    for (auto& r : lanes_) {
      wait_until_done(r->stream.get(), deadline, lane_name(r->lane) + " copies");
      const HelperStream helper = r->copier->helper_stream();
      if (helper.stream != nullptr)
        wait_until_done(helper.stream, deadline, lane_name(r->lane) + " " + helper.what);
    }
    if (latch_.timed_out()) {
      throw HangError("the latch released itself before the batch was queued; sample discarded");
    }
    if (timed) {
      for (std::size_t i = 0; i < lanes_.size(); ++i) {
        out.lanes[i].seconds.push_back(elapsed_s(lanes_[i]->start.get(), lanes_[i]->end.get()));
      }
      out.total_seconds.push_back(total_seconds(out));
    }
    verify(index, out);
  }

 private:
  int dev(int gpu) const { return opt_.placement.device(gpu); }

  // The time the sample's bytes (every lane's batch) took together. Padded lanes each ran
  // under load for their own window while untimed copies kept the others busy, so the first
  // start to the last end would count the slowest lane's window against bytes of lanes that
  // also moved untimed ones meanwhile; their total is the sum of the lanes' rates instead,
  // expressed as the time all timed bytes would take at that rate.
  double total_seconds(const Measured& out) const {
    if (lanes_.size() == 1) return out.lanes[0].seconds.back();
    if (!plan_.padded) return elapsed_s(lanes_.front()->start.get(), total_end_.get());
    double inverse_sum = 0;
    for (const auto& l : out.lanes) inverse_sum += 1.0 / l.seconds.back();
    return static_cast<double>(lanes_.size()) / inverse_sum;
  }

  // Untimed: sources get this sample's pattern (written by the GPU owning them), destinations
  // a poison pattern so a copy that never happened cannot pass as one that did.
  void prepare(std::uint32_t index) {
    for (auto& r : lanes_) {
      const Lane& l = r->lane;
      const std::uint32_t seed = pattern_seed(l.src, l.dst, index);
      {
        const int gpu = owner_of(l.src, l);
        cuda::DeviceGuard on(dev(gpu));
        kernels::launch_fill_pattern(r->src.get(), bytes_, seed, utility_.of(gpu));
      }
      {
        const int gpu = verifying_gpu(l);
        cuda::DeviceGuard on(dev(gpu));
        kernels::launch_fill_pattern(r->dst.get(), bytes_, seed ^ kPoisonSeed, utility_.of(gpu));
      }
    }
    utility_.wait_all(deadline_after(opt_.timeout_s), "pattern fill");
  }

  // The GPU owning each destination checks it, on its utility stream.
  void verify(std::uint32_t index, Measured& out) {
    auto* counts = static_cast<unsigned long long*>(counts_.get());
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
      LaneRun& r = *lanes_[i];
      const int gpu = verifying_gpu(r.lane);
      cuda::DeviceGuard on(dev(gpu));
      LaneCheck check;
      check.lane = r.lane;
      check.dst = r.dst.get();
      check.bytes = bytes_;
      check.seed = pattern_seed(r.lane.src, r.lane.dst, index);
      check.stream = utility_.of(gpu);
      check.scratch = static_cast<unsigned long long*>(r.mismatches.get());
      check.wrong_words = &counts[i];
      verifier_->enqueue(check);
    }
    utility_.wait_all(deadline_after(opt_.timeout_s), "verification");
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
      LaneSamples& ls = out.lanes[i];
      ls.verified_samples += 1;
      ls.verified_by = "gpu" + std::to_string(verifying_gpu(lanes_[i]->lane));
      if (counts[i] != 0) {
        ls.bad_words += counts[i];
        ls.bad_samples += 1;
      }
    }
  }

  std::uint64_t bytes_;
  MeasureOptions opt_;
  BatchPlan plan_;
  SampleEnqueuer enqueuer_;
  std::shared_ptr<const LaneVerifier> verifier_;
  // Before the buffers, destroyed after them: peer mappings outlive the buffers mapped
  // through them.
  std::vector<cuda::PeerAccess> peers_;
  Latch latch_;
  UtilityStreams utility_;
  LaneRuns lanes_;
  cuda::PinnedHostPtr counts_;
  cuda::Event total_end_;
};

}  // namespace

std::uint32_t pattern_seed(const Endpoint& src, const Endpoint& dst, std::uint32_t sample) {
  std::uint32_t x =
      src.code() * 0x9E3779B1u ^ dst.code() * 0x85EBCA77u ^ (sample + 1) * 0xC2B2AE3Du;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  x *= 0x297A2D39u;
  x ^= x >> 15;
  return x;
}

Measured measure_bandwidth(const std::vector<Lane>& lanes, std::uint64_t bytes,
                           const MeasureOptions& options) {
  if (options.samples < 1) throw std::invalid_argument("at least one sample");
  BandwidthRun run(lanes, bytes, options);
  Measured m;
  m.copies_per_sample = run.copies();
  m.lanes.resize(lanes.size());
  std::uint32_t index = 0;
  for (int w = 0; w < options.warmup_samples; ++w) run.sample(index++, false, m);
  for (int s = 0; s < options.samples; ++s) run.sample(index++, true, m);
  return m;
}

}  // namespace p2p::bench
