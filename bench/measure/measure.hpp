// Timing and verification of one (lanes, size): the GPU side of every bandwidth and latency
// case. Per sample: fill the sources with a pattern seeded per pair and sample, hold every
// lane's stream with the latch, enqueue start event, the batch of copies and end event on each,
// release, wait (with a deadline), then have the GPU that owns each destination count the
// words that differ. Warm-up samples run the same way and are discarded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/measure/buffer_cache.hpp"
#include "bench/measure/host_memory.hpp"
#include "bench/measure/lane.hpp"
#include "bench/placement.hpp"
#include "common/cuda_resources.hpp"
#include "kernels/copy.hpp"

namespace p2p::bench {

class LaneVerifier;  // lane_verifier.hpp

struct MeasureOptions {
  // The device of every GPU id the lanes name (empty: ids are CUDA ordinals). Two logical
  // GPUs of one device each own their buffers, streams and events; copies between them go
  // through the same calls as between two devices.
  GpuPlacement placement;
  int samples = 5;
  int warmup_samples = 1;
  int copies_per_batch = 0;     // 0: copies_per_batch(bytes) from sizes.hpp
  kernels::CopyShape sm_shape;  // blocks 0: fill every SM of the issuer
  HostMemory host_memory = HostMemory::kPinned;
  // Pinned host buffers kept between figures (null: each figure pins its own). Shared by every
  // copy of these options in one run; bench::run_bench makes it and frees what it keeps at the end.
  std::shared_ptr<BufferCache<cuda::PinnedHostPtr>> host_cache;
  double timeout_s = 60;  // a sample that takes longer is a hang (HangError)
  std::uint64_t latch_timeout_ns = 10'000'000'000ull;
  std::uint64_t latency_loads = 50'000;      // dependent loads per latency sample
  std::uint64_t latency_stride_bytes = 128;  // one node per 128-byte line
  std::uint64_t latency_span_bytes = 1ull << 20;
  // Bidirectional cases: every lane also copies before its start event and after its end
  // event (untimed), so each lane's timed window lies wholly inside the other lanes' traffic.
  // Without it, whichever direction finishes first leaves the other running alone for the
  // tail of its batch, and that direction's figure swings with the skew between them.
  bool each_lane_under_load = false;
  // Checks each lane's destination after every sample (null: MismatchCounter, the verifying
  // GPU counts the words that differ from the pattern).
  std::shared_ptr<const LaneVerifier> verifier;
};

struct LaneSamples {
  std::vector<double> seconds;  // GPU time of the lane's batch, per timed sample
  std::uint64_t bad_words = 0;  // over every verified sample, warm-up included
  int bad_samples = 0;
  int verified_samples = 0;
  std::string verified_by;  // "gpu1"
};

struct Measured {
  int copies_per_sample = 0;
  std::vector<LaneSamples> lanes;
  // Per sample: first lane's start to the last lane's end; with each_lane_under_load, the
  // time every lane's timed bytes take at the sum of the lanes' rates.
  std::vector<double> total_seconds;
  // Latency cases:
  std::vector<double> latency_ns;
  std::uint64_t loads_per_sample = 0;
  std::uint64_t stride_bytes = 0;
};

// All lanes run concurrently; each copies `bytes` copies_per_sample times per sample.
Measured measure_bandwidth(const std::vector<Lane>& lanes, std::uint64_t bytes,
                           const MeasureOptions& options);

// One lane of a latency method (the pointer chase: GPU `issuer` walks a chain in dst's memory).
// `bytes` is ignored (the chain's span comes from the options).
Measured measure_latency(const std::vector<Lane>& lanes, std::uint64_t bytes,
                         const MeasureOptions& options);

// Pattern seed for a lane's sample: distinct per (src, dst, sample).
std::uint32_t pattern_seed(const Endpoint& src, const Endpoint& dst, std::uint32_t sample);

}  // namespace p2p::bench
