// The SM copy: the copy kernel (kernels/copy.hpp) on the issuer, loading from src and storing to
// dst through peer access or mapped host memory. SM kernels on one device split its SMs; two
// lanes of one issuer run as one kernel, alternate warps on each (a fused pair).
#include <algorithm>

#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/methods/method_table.hpp"
#include "kernels/copy.hpp"

namespace p2p::bench {
namespace {

class SmCopier final : public LaneCopier {
 public:
  SmCopier(const Lane& l, const CopierSetup& setup) : bytes_(setup.bytes) {
    shape_ = kernels::resolve_copy_shape(setup.options.placement.device(l.issuer),
                                         setup.options.sm_shape);
    shape_.blocks = std::max(1, shape_.blocks / setup.kernels_sharing_sms);
  }

  void enqueue_copies(CopyEnds lane, const CopyEnds* partner, int count,
                      cudaStream_t stream) override {
    for (int k = 0; k < count; ++k) {
      if (partner != nullptr) {
        kernels::launch_copy_pair(lane.dst, lane.src, partner->dst, partner->src, bytes_, shape_,
                                  stream);
      } else {
        kernels::launch_copy(lane.dst, lane.src, bytes_, shape_, stream);
      }
    }
  }

 private:
  std::uint64_t bytes_;
  kernels::CopyShape shape_;
};

MethodTraits sm_copy_traits() {
  MethodTraits t;
  t.word = "sm";
  t.metric = Metric::kBandwidth;
  t.link_path = LinkPath::kDirect;
  t.peer_mapping = PeerMapping::kIssuerToOther;
  t.runs_on_sms = true;
  t.fuses_pairs = true;
  return t;
}

class SmCopy final : public TransferMethod {
 public:
  SmCopy() : TransferMethod(sm_copy_traits()) {}
  std::unique_ptr<LaneCopier> make_copier(const Lane& lane,
                                          const CopierSetup& setup) const override {
    return std::make_unique<SmCopier>(lane, setup);
  }
};

}  // namespace

const TransferMethod& sm_copy_method() {
  static const SmCopy method;
  return method;
}

}  // namespace p2p::bench
