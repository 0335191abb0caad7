// The copy engine: cudaMemcpyPeerAsync between two GPUs, cudaMemcpyAsync otherwise (host
// memory, or within one GPU), on the issuer's stream. Between two GPUs both peer mappings are
// made where the driver allows them, since with both the copy engine takes the P2P path.
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/methods/method_table.hpp"
#include "common/cuda_check.hpp"

namespace p2p::bench {
namespace {

class CopyEngineCopier final : public LaneCopier {
 public:
  CopyEngineCopier(const Lane& l, const CopierSetup& setup) : bytes_(setup.bytes) {
    peer_copy_ = l.src.is_gpu() && l.dst.is_gpu() && l.src != l.dst;
    if (peer_copy_) {
      src_device_ = setup.options.placement.device(l.src.gpu);
      dst_device_ = setup.options.placement.device(l.dst.gpu);
    }
  }

  void enqueue_copies(CopyEnds lane, const CopyEnds* /*partner*/, int count,
                      cudaStream_t stream) override {
    for (int k = 0; k < count; ++k) {
      if (peer_copy_) {
        // Between two logical GPUs of one device the ordinals are equal: a device-to-device
        // copy through the same call.
        P2P_CHECK(
            cudaMemcpyPeerAsync(lane.dst, dst_device_, lane.src, src_device_, bytes_, stream));
      } else {
        P2P_CHECK(cudaMemcpyAsync(lane.dst, lane.src, bytes_, cudaMemcpyDefault, stream));
      }
    }
  }

 private:
  std::uint64_t bytes_;
  bool peer_copy_ = false;
  int src_device_ = -1;
  int dst_device_ = -1;
};

MethodTraits copy_engine_traits() {
  MethodTraits t;
  t.word = "copy_engine";
  t.metric = Metric::kBandwidth;
  t.link_path = LinkPath::kDirect;
  t.peer_mapping = PeerMapping::kBothWhereAllowed;
  return t;
}

class CopyEngine final : public TransferMethod {
 public:
  CopyEngine() : TransferMethod(copy_engine_traits()) {}
  std::unique_ptr<LaneCopier> make_copier(const Lane& lane,
                                          const CopierSetup& setup) const override {
    return std::make_unique<CopyEngineCopier>(lane, setup);
  }
};

}  // namespace

const TransferMethod& copy_engine_method() {
  static const CopyEngine method;
  return method;
}

}  // namespace p2p::bench
