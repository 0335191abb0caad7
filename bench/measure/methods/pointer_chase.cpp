// The pointer chase, the latency method: one GPU thread of the issuer walks a chain laid out in
// dst's memory, one node per stride (128 bytes by default), round and round a small span
// (1 MiB by default) so that the address translations stay warm and what is timed is the load
// itself; ld.global.cv keeps any cache from answering instead of the memory. A walk is correct
// when it ends on the node that the number of loads leads to.
#include "kernels/pointer_chase.hpp"

#include <stdexcept>

#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/methods/method_table.hpp"
#include "common/cuda_check.hpp"

namespace p2p::bench {
namespace {

class ChainWalker final : public LatencyWalker {
 public:
  ChainWalker(const Lane& l, const MeasureOptions& opt)
      : loads_(opt.latency_loads), activity_("pointer chase to " + l.dst.label()) {
    const std::uint64_t stride = opt.latency_stride_bytes;
    const std::uint64_t nodes = opt.latency_span_bytes / stride;
    if (nodes < 2) throw std::invalid_argument("latency span holds fewer than two nodes");
    // GPU ids may be logical GPUs: every CUDA call takes the device they live on, and two
    // logical GPUs of one device need no peer mapping.
    const GpuPlacement& place = opt.placement;
    const int issuer = place.device(l.issuer);
    if (l.dst.is_gpu() && place.device(l.dst.gpu) != issuer)
      peer_ = cuda::PeerAccess(issuer, place.device(l.dst.gpu));
    chain_ = Buffer::allocate(l.dst, opt.latency_span_bytes, opt.host_memory,
                              l.dst.is_gpu() ? place.device(l.dst.gpu) : -1);
    {
      // The owner writes the chain into its own memory; host memory is written by the issuer.
      const int builder = l.dst.is_gpu() ? place.device(l.dst.gpu) : issuer;
      cuda::DeviceGuard on(builder);
      auto build = cuda::make_stream(builder);
      kernels::launch_build_chain(chain_.get(), nodes, stride, build.get());
      wait_until_done(build.get(), deadline_after(opt.timeout_s), "pointer chain build");
    }
    reached_ = cuda::make_device_buffer(issuer, sizeof(void*));
    expected_ = static_cast<const char*>(chain_.get()) + (loads_ % nodes) * stride;
  }

  void enqueue_walk(cudaStream_t stream) override {
    kernels::launch_pointer_chase(chain_.get(), loads_, static_cast<const void**>(reached_.get()),
                                  stream);
  }

  bool walked_correctly() override {
    const void* got = nullptr;
    P2P_CHECK(cudaMemcpy(&got, reached_.get(), sizeof(got), cudaMemcpyDeviceToHost));
    return got == expected_;
  }

  std::string activity() const override { return activity_; }

 private:
  std::uint64_t loads_;
  std::string activity_;
  cuda::PeerAccess peer_;  // before the chain, destroyed after it
  Buffer chain_;
  cuda::DevicePtr reached_;  // on the issuer: where the walk ended
  const void* expected_ = nullptr;
};

MethodTraits pointer_chase_traits() {
  MethodTraits t;
  t.word = "pointer_chase";
  t.metric = Metric::kLatency;
  t.link_path = LinkPath::kNone;
  t.peer_mapping = PeerMapping::kIssuerToOther;
  return t;
}

class PointerChase final : public TransferMethod {
 public:
  PointerChase() : TransferMethod(pointer_chase_traits()) {}
  std::unique_ptr<LatencyWalker> make_walker(const Lane& lane,
                                             const MeasureOptions& options) const override {
    return std::make_unique<ChainWalker>(lane, options);
  }
  std::string verification_failure(const LaneSamples& s) const override {
    return "the pointer chain was not walked correctly in " + std::to_string(s.bad_samples) +
           " of " + std::to_string(s.verified_samples) + " samples";
  }
};

}  // namespace

const TransferMethod& pointer_chase_method() {
  static const PointerChase method;
  return method;
}

}  // namespace p2p::bench
