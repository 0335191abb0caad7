#include "nccl/run/launch.hpp"

namespace p2p::nccl {

namespace {

const void* cptr(std::uintptr_t p, std::uint64_t offset_bytes = 0) {
  return reinterpret_cast<const void*>(p + offset_bytes);
}
void* mptr(std::uintptr_t p, std::uint64_t offset_bytes = 0) {
  return reinterpret_cast<void*>(p + offset_bytes);
}

}  // namespace

ncclDataType_t nccl_type(DataType t) {
  switch (t) {
    case DataType::kFloat32: return ncclFloat32;
    case DataType::kBfloat16: return ncclBfloat16;
    case DataType::kFloat16: return ncclFloat16;
  }
  return ncclFloat32;
}

void enqueue(const Clique& clique, const OpSpec& op, const std::vector<RankRegions>& regions) {
  const NcclApi& nccl = clique.api();
  const ncclDataType_t type = nccl_type(op.dtype);
  const std::uint64_t slice_bytes = op.count * element_bytes(op.dtype);
  const int n = clique.size();
  NcclGroup group(nccl);
  for (int r : clique.local_ranks()) {
    const RankRegions& g = regions.at(clique.slot(r));
    ncclComm_t comm = clique.comm(r);
    cudaStream_t s = clique.stream(r);
    switch (op.collective) {
      case Collective::kAllReduce:
        P2P_CHECK(nccl.all_reduce(cptr(g.send), mptr(g.recv), op.count, type, ncclSum, comm, s));
        break;
      case Collective::kAllGather:
        P2P_CHECK(nccl.all_gather(cptr(g.send), mptr(g.recv), op.count, type, comm, s));
        break;
      case Collective::kReduceScatter:
        P2P_CHECK(
            nccl.reduce_scatter(cptr(g.send), mptr(g.recv), op.count, type, ncclSum, comm, s));
        break;
      case Collective::kBroadcast:
        P2P_CHECK(nccl.broadcast(cptr(g.send), mptr(g.recv), op.count, type, op.root, comm, s));
        break;
      case Collective::kAllToAll:
        // NCCL's own alltoall where the library has it: for a rank's slice to itself it copies
        // locally instead of going through the send/recv machinery, as nccl-tests measures it.
        if (nccl.all_to_all != nullptr) {
          P2P_CHECK(nccl.all_to_all(cptr(g.send), mptr(g.recv), op.count, type, comm, s));
          break;
        }
        for (int peer = 0; peer < n; ++peer) {
          const std::uint64_t at = static_cast<std::uint64_t>(peer) * slice_bytes;
          P2P_CHECK(nccl.send(cptr(g.send, at), op.count, type, peer, comm, s));
          P2P_CHECK(nccl.recv(mptr(g.recv, at), op.count, type, peer, comm, s));
        }
        break;
      case Collective::kSendRecvRing:
        P2P_CHECK(nccl.send(cptr(g.send), op.count, type, (r + 1) % n, comm, s));
        P2P_CHECK(nccl.recv(mptr(g.recv), op.count, type, (r - 1 + n) % n, comm, s));
        break;
      case Collective::kSendRecvPair:
        if (r == op.src_rank)
          P2P_CHECK(nccl.send(cptr(g.send), op.count, type, op.dst_rank, comm, s));
        if (r == op.dst_rank)
          P2P_CHECK(nccl.recv(mptr(g.recv), op.count, type, op.src_rank, comm, s));
        break;
    }
  }
  group.finish();
}

}  // namespace p2p::nccl
