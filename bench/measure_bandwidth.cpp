// The bandwidth half of measure.hpp. One BandwidthRun owns everything a (lanes, size) needs;
// its destructor frees it all on the right GPUs, so a case that throws leaves the process clean.
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "bench/gpu_resources.hpp"
#include "bench/measure.hpp"
#include "bench/sizes.hpp"
#include "common/error.hpp"
#include "kernels/pattern.hpp"

namespace p2p::bench {
namespace {

constexpr std::uint32_t kPoisonSeed = 0xA5A5A5A5u;
constexpr std::uint64_t kStagedChunkBytes = 4 * kMiB;
constexpr std::size_t kStagedMaxChunksPerCopy = 16;
constexpr std::size_t kStagedMaxChunksPerBatch = 64;
constexpr std::size_t kStagedSlots = 4;

// src GPU -> bounce slot (D2H on the lane's stream) -> dst GPU (H2D on a helper stream on the
// destination GPU). Events hand each slot back and forth so both PCIe directions stay busy.
struct StagedPipeline {
  std::size_t chunk_bytes = 0;
  std::size_t chunks_per_copy = 0;
  std::size_t slots = 0;
  Buffer bounce;
  cuda::Stream helper;
  std::vector<cuda::Event> copied_out;  // on the source GPU: slot holds a chunk
  std::vector<cuda::Event> copied_in;   // on the destination GPU: slot is free again
  cuda::Event drained;                  // on the destination GPU: last chunk landed
};

struct LaneRun {
  Lane lane;
  Buffer src;
  Buffer dst;
  cuda::Stream stream;
  cuda::Event start;
  cuda::Event end;
  kernels::CopyShape shape;
  std::unique_ptr<StagedPipeline> staged;
  cuda::DevicePtr mismatches;  // on the verifying GPU
};

int owner_of(const Endpoint& e, const Lane& lane) { return e.is_gpu() ? e.gpu : lane.issuer; }

// Every GPU id below is a (possibly logical) GPU; dev() is the CUDA device it lives on, and
// every CUDA call is made with that.

class BandwidthRun {
 public:
  BandwidthRun(const std::vector<Lane>& lanes, std::uint64_t bytes, const MeasureOptions& opt)
      : bytes_(bytes), opt_(opt), place_(opt.placement) {
    if (lanes.empty()) throw std::invalid_argument("bandwidth case without lanes");
    copies_ = opt.copies_per_batch > 0 ? opt.copies_per_batch : copies_per_batch(bytes);
    enable_peer_access(lanes);
    std::map<int, int> sm_lanes_per_device;
    for (const Lane& l : lanes) {
      if (l.method == Method::kSm) ++sm_lanes_per_device[dev(l.issuer)];
      if (l.method == Method::kStaged) limit_staged_batch();
    }
    // Two SM lanes on one GPU run as one kernel, alternate warps on each (see launch_copy_pair).
    fused_pair_ = lanes.size() == 2 && lanes[0].method == Method::kSm &&
                  lanes[1].method == Method::kSm && lanes[0].issuer == lanes[1].issuer;
    if (fused_pair_) sm_lanes_per_device[dev(lanes[0].issuer)] = 1;
    // One fused kernel already keeps both directions busy for its whole run; staged lanes
    // pipeline through shared slots and are never bidirectional.
    padded_ = opt.each_lane_under_load && lanes.size() > 1 && !fused_pair_ &&
              std::none_of(lanes.begin(), lanes.end(),
                           [](const Lane& l) { return l.method == Method::kStaged; });
    if (padded_) {
      lead_in_copies_ = std::max(1, copies_ / 4);
      tail_copies_ = copies_;
    }
    for (const Lane& l : lanes) {
      auto run = std::make_unique<LaneRun>();
      run->lane = l;
      run->src = allocate(l.src, bytes);
      run->dst = allocate(l.dst, bytes);
      run->stream = cuda::make_stream(dev(l.issuer));
      run->start = cuda::make_event(dev(l.issuer));
      run->end = cuda::make_event(dev(l.issuer));
      run->mismatches = cuda::make_device_buffer(dev(verifying_gpu(l)), sizeof(unsigned long long));
      if (l.method == Method::kSm) {
        // Separate kernels sharing a device split its SMs, as they would split them anyway once
        // running.
        run->shape = kernels::resolve_copy_shape(dev(l.issuer), opt.sm_shape);
        run->shape.blocks = std::max(1, run->shape.blocks / sm_lanes_per_device[dev(l.issuer)]);
      }
      if (l.method == Method::kStaged) run->staged = make_staged(l);
      utility(owner_of(l.src, l));
      utility(verifying_gpu(l));
      lanes_.push_back(std::move(run));
    }
    counts_ = cuda::make_pinned_host(sizeof(unsigned long long) * lanes_.size());
    total_end_ = cuda::make_event(dev(lanes_.front()->lane.issuer));
  }

  int copies() const { return copies_; }

  void sample(std::uint32_t index, bool timed, Measured& out) {
    prepare(index);
    latch_.arm();
    LaneRun& first = *lanes_.front();
    try {
      if (fused_pair_) {
        enqueue(*lanes_[0], lanes_[1].get(), nullptr);
      } else {
        for (auto& r : lanes_)
          enqueue(*r, nullptr, r == lanes_.front() ? nullptr : lanes_.front().get());
      }
      if (lanes_.size() > 1) {
        cuda::DeviceGuard on(dev(first.lane.issuer));
        for (std::size_t i = 1; i < lanes_.size(); ++i) {
          P2P_CHECK(cudaStreamWaitEvent(first.stream.get(), lanes_[i]->end.get(), 0));
        }
        P2P_CHECK(cudaEventRecord(total_end_.get(), first.stream.get()));
      }
      // After total_end_ in every stream's order, so the tails never count in a figure.
      for (auto& r : lanes_) {
        cuda::DeviceGuard on(dev(r->lane.issuer));
        enqueue_copies(*r, nullptr, tail_copies_);
      }
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
      if (r->staged)
        wait_until_done(r->staged->helper.get(), deadline, lane_name(r->lane) + " staging");
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
  static std::string lane_name(const Lane& l) { return l.src.label() + "->" + l.dst.label(); }

  int dev(int gpu) const { return place_.device(gpu); }

  Buffer allocate(const Endpoint& where, std::uint64_t bytes) const {
    return Buffer::allocate(where, bytes, opt_.host_memory, where.is_gpu() ? dev(where.gpu) : -1,
                            opt_.host_cache);
  }

  // The time the sample's bytes (every lane's batch) took together. Padded lanes each ran
  // under load for their own window while untimed copies kept the others busy, so the first
  // start to the last end would count the slowest lane's window against bytes of lanes that
  // also moved untimed ones meanwhile; their total is the sum of the lanes' rates instead,
  // expressed as the time all timed bytes would take at that rate.
  double total_seconds(const Measured& out) const {
    if (lanes_.size() == 1) return out.lanes[0].seconds.back();
    if (!padded_) return elapsed_s(lanes_.front()->start.get(), total_end_.get());
    double inverse_sum = 0;
    for (const auto& l : out.lanes) inverse_sum += 1.0 / l.seconds.back();
    return static_cast<double>(lanes_.size()) / inverse_sum;
  }

  static double elapsed_s(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    P2P_CHECK(cudaEventElapsedTime(&ms, a, b));
    return static_cast<double>(ms) / 1e3;
  }

  // Between devices only: two logical GPUs of one device reach each other's memory as it is.
  void enable_peer_access(const std::vector<Lane>& lanes) {
    std::set<std::pair<int, int>> wanted;
    for (const Lane& l : lanes) {
      if (!l.src.is_gpu() || !l.dst.is_gpu() || l.src == l.dst || l.method == Method::kStaged)
        continue;
      const int issuer = dev(l.issuer);
      const int other = dev(l.issuer == l.src.gpu ? l.dst.gpu : l.src.gpu);
      if (issuer == other) continue;
      wanted.insert({issuer, other});  // required: the issuer maps the other's memory
      if (l.method == Method::kCopyEngine) {
        // Optional reverse mapping: with both enabled the copy engine uses the P2P path.
        int ok = 0;
        P2P_CHECK(cudaDeviceCanAccessPeer(&ok, other, issuer));
        if (ok) wanted.insert({other, issuer});
      }
    }
    for (const auto& [dev, peer] : wanted) peers_.emplace_back(dev, peer);
  }

  void limit_staged_batch() {
    const std::size_t chunks = staged_chunks_per_copy();
    const int most = static_cast<int>(std::max<std::size_t>(1, kStagedMaxChunksPerBatch / chunks));
    copies_ = std::min(copies_, most);
  }

  std::size_t staged_chunks_per_copy() const {
    const std::size_t want =
        static_cast<std::size_t>((bytes_ + kStagedChunkBytes - 1) / kStagedChunkBytes);
    return std::clamp<std::size_t>(want, 1, kStagedMaxChunksPerCopy);
  }

  std::unique_ptr<StagedPipeline> make_staged(const Lane& l) {
    if (!l.src.is_gpu() || !l.dst.is_gpu())
      throw std::invalid_argument("staged lanes run GPU to GPU");
    auto p = std::make_unique<StagedPipeline>();
    p->chunks_per_copy = staged_chunks_per_copy();
    p->chunk_bytes =
        static_cast<std::size_t>((bytes_ + p->chunks_per_copy - 1) / p->chunks_per_copy);
    p->chunk_bytes = (p->chunk_bytes + 255) / 256 * 256;
    p->slots = std::min(kStagedSlots, p->chunks_per_copy * static_cast<std::size_t>(copies_));
    p->bounce = allocate(Endpoint::host(), p->chunk_bytes * p->slots);
    p->helper = cuda::make_stream(dev(l.dst.gpu));
    for (std::size_t s = 0; s < p->slots; ++s) {
      p->copied_out.push_back(cuda::make_event(dev(l.src.gpu), cudaEventDisableTiming));
      p->copied_in.push_back(cuda::make_event(dev(l.dst.gpu), cudaEventDisableTiming));
    }
    p->drained = cuda::make_event(dev(l.dst.gpu), cudaEventDisableTiming);
    return p;
  }

  // One per GPU (logical GPUs of one device each have their own), on its device.
  cudaStream_t utility(int gpu) {
    auto it = utility_.find(gpu);
    if (it == utility_.end()) it = utility_.emplace(gpu, cuda::make_stream(dev(gpu))).first;
    return it->second.get();
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
        kernels::launch_fill_pattern(r->src.get(), bytes_, seed, utility(gpu));
      }
      {
        const int gpu = verifying_gpu(l);
        cuda::DeviceGuard on(dev(gpu));
        kernels::launch_fill_pattern(r->dst.get(), bytes_, seed ^ kPoisonSeed, utility(gpu));
      }
    }
    const Deadline deadline = deadline_after(opt_.timeout_s);
    for (auto& [gpu, stream] : utility_) wait_until_done(stream.get(), deadline, "pattern fill");
  }

  // `partner`: the second lane of a fused pair, copied by the same kernels on r's stream; its
  // events are recorded there too, so both directions report the same span.
  // `leader`: the first lane, whose start every other lane waits for, so that all lanes of a
  // sample start from one instant (the first lane's) and the total spans exactly that run.
  void enqueue(LaneRun& r, LaneRun* partner, const LaneRun* leader) {
    const Lane& l = r.lane;
    cuda::DeviceGuard on(dev(l.issuer));
    cudaStream_t s = r.stream.get();
    latch_.hold(s, opt_.latch_timeout_ns);
    enqueue_copies(r, partner, lead_in_copies_);
    if (leader != nullptr) P2P_CHECK(cudaStreamWaitEvent(s, leader->start.get(), 0));
    P2P_CHECK(cudaEventRecord(r.start.get(), s));
    if (partner != nullptr) P2P_CHECK(cudaEventRecord(partner->start.get(), s));
    enqueue_copies(r, partner, copies_);
    if (r.staged) {
      {
        cuda::DeviceGuard on_dst(dev(l.dst.gpu));
        P2P_CHECK(cudaEventRecord(r.staged->drained.get(), r.staged->helper.get()));
      }
      P2P_CHECK(cudaStreamWaitEvent(s, r.staged->drained.get(), 0));
    }
    P2P_CHECK(cudaEventRecord(r.end.get(), s));
    if (partner != nullptr) P2P_CHECK(cudaEventRecord(partner->end.get(), s));
  }

  // `count` copies of the lane on its stream (the issuer current). Every copy moves the same
  // source into the same destination, so untimed lead-in and tail copies leave the data as
  // the timed batch does and verification is unchanged.
  void enqueue_copies(LaneRun& r, LaneRun* partner, int count) {
    const Lane& l = r.lane;
    cudaStream_t s = r.stream.get();
    std::size_t chunk_counter = 0;
    for (int k = 0; k < count; ++k) {
      switch (l.method) {
        case Method::kCopyEngine:
          if (l.src.is_gpu() && l.dst.is_gpu() && l.src != l.dst) {
            // Between two logical GPUs of one device the ordinals are equal: a device-to-device
            // copy through the same call.
            P2P_CHECK(cudaMemcpyPeerAsync(r.dst.get(), dev(l.dst.gpu), r.src.get(), dev(l.src.gpu),
                                          bytes_, s));
          } else {
            P2P_CHECK(cudaMemcpyAsync(r.dst.get(), r.src.get(), bytes_, cudaMemcpyDefault, s));
          }
          break;
        case Method::kSm:
          if (partner != nullptr) {
            kernels::launch_copy_pair(r.dst.get(), r.src.get(), partner->dst.get(),
                                      partner->src.get(), bytes_, r.shape, s);
          } else {
            kernels::launch_copy(r.dst.get(), r.src.get(), bytes_, r.shape, s);
          }
          break;
        case Method::kStaged: enqueue_staged_copy(r, chunk_counter); break;
        case Method::kPointerChase:
          throw std::invalid_argument("pointer chase lane in a bandwidth case");
      }
    }
  }

  // Each stream's work is issued with its own GPU current: the lane's stream on the source,
  // the helper on the destination.
  void enqueue_staged_copy(LaneRun& r, std::size_t& chunk_counter) {
    StagedPipeline& p = *r.staged;
    const Lane& l = r.lane;
    cudaStream_t out = r.stream.get();
    cudaStream_t in = p.helper.get();
    for (std::size_t c = 0; c < p.chunks_per_copy; ++c, ++chunk_counter) {
      const std::size_t offset = c * p.chunk_bytes;
      if (offset >= bytes_) break;
      const std::size_t len = std::min<std::size_t>(p.chunk_bytes, bytes_ - offset);
      const std::size_t slot = chunk_counter % p.slots;
      char* bounce = static_cast<char*>(p.bounce.get()) + slot * p.chunk_bytes;
      {
        cuda::DeviceGuard on(dev(l.src.gpu));
        // The slot is reused only after the destination GPU has drained it.
        if (chunk_counter >= p.slots)
          P2P_CHECK(cudaStreamWaitEvent(out, p.copied_in[slot].get(), 0));
        P2P_CHECK(cudaMemcpyAsync(bounce, static_cast<const char*>(r.src.get()) + offset, len,
                                  cudaMemcpyDeviceToHost, out));
        P2P_CHECK(cudaEventRecord(p.copied_out[slot].get(), out));
      }
      {
        cuda::DeviceGuard on(dev(l.dst.gpu));
        P2P_CHECK(cudaStreamWaitEvent(in, p.copied_out[slot].get(), 0));
        P2P_CHECK(cudaMemcpyAsync(static_cast<char*>(r.dst.get()) + offset, bounce, len,
                                  cudaMemcpyHostToDevice, in));
        P2P_CHECK(cudaEventRecord(p.copied_in[slot].get(), in));
      }
    }
  }

  // The GPU owning each destination counts the words that differ from the source pattern.
  void verify(std::uint32_t index, Measured& out) {
    auto* counts = static_cast<unsigned long long*>(counts_.get());
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
      LaneRun& r = *lanes_[i];
      const Lane& l = r.lane;
      const int gpu = verifying_gpu(l);
      cuda::DeviceGuard on(dev(gpu));
      cudaStream_t s = utility(gpu);
      if (opt_.corrupt_for_tests && opt_.corrupt_for_tests->src == l.src &&
          opt_.corrupt_for_tests->dst == l.dst) {
        kernels::launch_flip_words(r.dst.get(), bytes_, opt_.corrupt_for_tests->words, s);
      }
      auto* counter = static_cast<unsigned long long*>(r.mismatches.get());
      P2P_CHECK(cudaMemsetAsync(counter, 0, sizeof(*counter), s));
      kernels::launch_count_mismatches(r.dst.get(), bytes_, pattern_seed(l.src, l.dst, index),
                                       counter, s);
      P2P_CHECK(cudaMemcpyAsync(&counts[i], counter, sizeof(*counter), cudaMemcpyDeviceToHost, s));
    }
    const Deadline deadline = deadline_after(opt_.timeout_s);
    for (auto& [gpu, stream] : utility_) wait_until_done(stream.get(), deadline, "verification");
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
  GpuPlacement place_;
  int copies_ = 0;
  bool fused_pair_ = false;
  bool padded_ = false;     // each_lane_under_load in effect
  int lead_in_copies_ = 0;  // untimed, before each lane's start event
  int tail_copies_ = 0;     // untimed, after total_end_
  // Declared first, destroyed last: peer mappings outlive the buffers mapped through them.
  std::vector<cuda::PeerAccess> peers_;
  Latch latch_;
  std::map<int, cuda::Stream> utility_;  // per GPU: fills and verification, off the timed streams
  std::vector<std::unique_ptr<LaneRun>> lanes_;
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
