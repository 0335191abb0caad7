// How a lane moves its bytes is a strategy object, one per Method (method_table.hpp), each in
// its own file in this folder. The measuring code asks the lane's method, never which Method it
// is: its traits plan the lanes (peer mappings, batch layout, which link bounds the figure,
// whether the bytes cross host memory) and say what a record names; make_copier sets up and
// enqueues a bandwidth lane's copies, make_walker a latency lane's walk; verification_failure
// words a lane whose data did not check out.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

namespace p2p::bench {

struct Lane;            // lane.hpp
struct LaneSamples;     // measure.hpp
struct MeasureOptions;  // measure.hpp

enum class Metric { kBandwidth, kLatency };

// Which link bounds a lane's figure (records.hpp lane_ceiling) and whether its bytes cross host
// memory (sweep_plan.hpp: logical GPUs of one device share that link).
enum class LinkPath {
  kNone,         // a latency walk: no ceiling
  kDirect,       // src to dst: NVLink where there is; nothing within one device; else the narrower
                 // PCIe end
  kThroughHost,  // bounced through pinned host memory: both GPUs' PCIe links, never NVLink, even
                 // between two logical GPUs of one device
};

// The peer mappings a lane between GPUs of two devices needs (lane_setup.hpp).
enum class PeerMapping {
  kNone,              // its bytes never go from one GPU to the other directly
  kIssuerToOther,     // the issuer maps the other GPU's memory
  kBothWhereAllowed,  // that, and the reverse where the driver allows it: with both mappings the
                      // copy engine takes the P2P path
};

// What the measuring code plans and records from: plain data, one row per method.
struct MethodTraits {
  const char* word = "";  // the records' "method": lower_snake, never "mixed"
  Metric metric = Metric::kBandwidth;
  LinkPath link_path = LinkPath::kDirect;
  PeerMapping peer_mapping = PeerMapping::kIssuerToOther;
  bool runs_on_sms = false;  // its kernels split the issuer's SMs with other such lanes
  bool fuses_pairs = false;  // two lanes of one issuer run as one kernel (runs_on_sms too)
  bool can_pad = true;       // untimed copies may surround its batch (each_lane_under_load)
};

// A bandwidth lane's source and destination buffers.
struct CopyEnds {
  const void* src = nullptr;
  void* dst = nullptr;
};

// A stream of a copier's own that a sample waits for, and what it does (for hang messages).
struct HelperStream {
  cudaStream_t stream = nullptr;
  std::string what;
};

// One bandwidth lane's copying, made before the first sample and used for every one of them.
class LaneCopier {
 public:
  virtual ~LaneCopier() = default;
  // Enqueues `count` copies of lane.src into lane.dst on `stream` (the lane's, on the issuer,
  // whose device is current). Every copy moves the same bytes, so untimed copies leave the
  // data as the timed ones do. `partner`: the other lane of a fused pair (fuses_pairs only).
  virtual void enqueue_copies(CopyEnds lane, const CopyEnds* partner, int count,
                              cudaStream_t stream) = 0;
  // Before the lane's end event: the copier's own streams join `stream`, so the event covers
  // their work too.
  virtual void join(cudaStream_t /*stream*/) {}
  virtual HelperStream helper_stream() const { return {}; }
};

// What a copier is made for.
struct CopierSetup {
  std::uint64_t bytes = 0;
  int copies_per_batch = 0;
  int kernels_sharing_sms = 1;  // SM kernels on the issuer's device at once (runs_on_sms)
  const MeasureOptions& options;
};

// One latency lane's walk, made (and its memory laid out) before the first sample.
class LatencyWalker {
 public:
  virtual ~LatencyWalker() = default;
  // Enqueues one sample's walk on `stream` (on the issuer, whose device is current).
  virtual void enqueue_walk(cudaStream_t stream) = 0;
  // Once the stream is done: whether the walk ended where it must.
  virtual bool walked_correctly() = 0;
  // "pointer chase to gpu1": names the walk in hang messages.
  virtual std::string activity() const = 0;
};

class TransferMethod {
 public:
  explicit TransferMethod(MethodTraits traits) : traits_(traits) {}
  virtual ~TransferMethod() = default;
  TransferMethod(const TransferMethod&) = delete;
  TransferMethod& operator=(const TransferMethod&) = delete;

  const MethodTraits& traits() const { return traits_; }

  // The most copies one timed batch of `bytes` may hold; 0: no limit of the method's own.
  virtual int max_copies_per_batch(std::uint64_t /*bytes*/) const { return 0; }

  // A bandwidth method's copier for `lane`; std::invalid_argument for a latency method.
  virtual std::unique_ptr<LaneCopier> make_copier(const Lane& lane, const CopierSetup& setup) const;

  // A latency method's walker for `lane`; std::invalid_argument for a bandwidth method.
  virtual std::unique_ptr<LatencyWalker> make_walker(const Lane& lane,
                                                     const MeasureOptions& options) const;

  // A record's detail for a lane whose checks failed. By default the destination pattern check
  // (lane_verifier.hpp) that every copy gets: "verification failed: 5 bad words in 1 of 2
  // samples (checked by gpu0)".
  virtual std::string verification_failure(const LaneSamples& samples) const;

 private:
  MethodTraits traits_;
};

}  // namespace p2p::bench
