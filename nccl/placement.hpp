// Which CUDA device each rank runs on and, when ranks are processes, what NCCL must be told so
// that two of them may share one GPU. Pure, so the CPU tests check every layout.
//
// NCCL refuses two ranks of one communicator on the same GPU of one host ("Duplicate GPU
// detected"). It recognises a host by NCCL_HOSTID where that is set, so ranks that share a GPU
// are given different host ids: NCCL then treats them as ranks of different hosts and connects
// them over its network transport (NET/Socket without InfiniBand). Ranks on distinct GPUs keep
// a common host id, so between them NCCL still picks P2P or SHM as on one real host.
#pragma once

#include <string>
#include <vector>

namespace p2p::nccl {

struct RankSlot {
  int rank = 0;
  int device = 0;       // CUDA ordinal
  std::string host_id;  // NCCL_HOSTID for this rank's process; "" = leave NCCL's own
};

struct RankPlacement {
  int nranks = 0;
  std::vector<int> devices;  // the selected devices, in order
  std::vector<RankSlot> ranks;
  // Some device carries more than one rank: only possible with one process per rank.
  bool shares_device = false;
};

// Rank r runs on devices[r % D]; when nranks > D every rank gets the host id
// "p2pcheck-host-<r / D>" (so ranks of one round share a host, those on one device never do).
// InputError for nranks < 1 or no device.
RankPlacement place_ranks(int nranks, const std::vector<int>& devices);

// The CUDA devices of the ranks, in rank order.
std::vector<int> rank_devices(const RankPlacement& p);

}  // namespace p2p::nccl
