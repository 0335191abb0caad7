// The staged copy: the path without peer access. The source GPU copies into pinned host bounce
// slots and the destination GPU copies out of them, pipelined in chunks (staged_pipeline.hpp).
// Its bytes cross both GPUs' PCIe links, whatever NVLink there is; it needs no peer mapping, a
// batch holds at most kStagedMaxChunksPerBatch chunks, and it is never padded (its lanes share
// slots and are never bidirectional).
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/methods/method_table.hpp"
#include "bench/measure/methods/staged_pipeline.hpp"

namespace p2p::bench {
namespace {

class StagedCopier final : public LaneCopier {
 public:
  StagedCopier(const Lane& l, const CopierSetup& setup)
      : pipeline_(l, setup.bytes, setup.copies_per_batch, setup.options) {}

  void enqueue_copies(CopyEnds lane, const CopyEnds* /*partner*/, int count,
                      cudaStream_t stream) override {
    std::size_t chunk_counter = 0;  // over this call's copies: picks each chunk's slot
    for (int k = 0; k < count; ++k)
      pipeline_.enqueue_copy(lane.src, lane.dst, stream, chunk_counter);
  }

  void join(cudaStream_t stream) override { pipeline_.join(stream); }

  HelperStream helper_stream() const override { return {pipeline_.helper(), "staging"}; }

 private:
  StagedPipeline pipeline_;
};

MethodTraits staged_copy_traits() {
  MethodTraits t;
  t.word = "staged";
  t.metric = Metric::kBandwidth;
  t.link_path = LinkPath::kThroughHost;
  t.peer_mapping = PeerMapping::kNone;
  t.can_pad = false;
  return t;
}

class StagedCopy final : public TransferMethod {
 public:
  StagedCopy() : TransferMethod(staged_copy_traits()) {}
  int max_copies_per_batch(std::uint64_t bytes) const override {
    return staged_max_copies_per_batch(bytes);
  }
  std::unique_ptr<LaneCopier> make_copier(const Lane& lane,
                                          const CopierSetup& setup) const override {
    return std::make_unique<StagedCopier>(lane, setup);
  }
};

}  // namespace

const TransferMethod& staged_copy_method() {
  static const StagedCopy method;
  return method;
}

}  // namespace p2p::bench
