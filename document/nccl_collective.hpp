// What each measured operation is, how big its buffers are for a given message size, and how
// nccl-tests turns a time into algbw and busbw. Pure functions of data, shared by the runner,
// the verification kernels (the enum only) and the CPU tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace p2p::doc {

enum class Collective {
  kAllReduce,      // ncclAllReduce, sum
  kAllGather,      // ncclAllGather
  kReduceScatter,  // ncclReduceScatter, sum
  kBroadcast,      // ncclBroadcast from rank 0
  kAllToAll,       // one group of ncclSend/ncclRecv to and from every rank
  kSendRecvRing,   // every rank sends to rank+1 and receives from rank-1, in one group
  kSendRecvPair,   // one ordered pair (src -> dst) at a time: the per-pair matrix
};

const std::vector<Collective>& all_collectives();
std::string to_string(Collective c);  // lower_snake key used by options, JSON and the table
Collective parse_collective(const std::string& name, const std::string& what = "--collectives");

// In-place has a defined meaning (and is measured) only where NCCL defines it: the four
// collectives. Send/recv from and into the same buffer would race between ranks.
bool supports_in_place(Collective c);

// Buffer geometry for one message size, following nccl-tests so that the `size` and `count`
// columns and the bandwidths line up with its output.
struct CollectiveShape {
  std::uint64_t count = 0;               // the count handed to NCCL (per peer for all-to-all)
  std::uint64_t send_count = 0;          // elements in each rank's send buffer
  std::uint64_t recv_count = 0;          // elements in each rank's receive buffer
  std::uint64_t send_in_place_step = 0;  // in-place: send = recv + rank * step (elements)
  std::uint64_t recv_in_place_step = 0;  // in-place: recv = send + rank * step (elements)
  std::uint64_t size_bytes = 0;          // nccl-tests' `size`: max(send, recv) bytes per rank
  std::uint64_t algbw_bytes = 0;         // bytes divided by the time to get algbw
};

// `bytes` is the requested message size. Per-rank slices are rounded down to 16 bytes as
// nccl-tests does; a shape with count 0 is not run.
CollectiveShape shape_of(Collective c, std::uint64_t bytes, std::size_t element_bytes, int nranks);

// nccl-tests' bus bandwidth factors: all_reduce 2(n-1)/n; all_gather, reduce_scatter and
// all-to-all (n-1)/n; broadcast and send/recv 1. Zero for one rank where data never leaves it.
double bus_factor(Collective c, int nranks);

// Decimal GB/s (1e9 B/s), as nccl-tests prints.
double algbw_gbps(std::uint64_t algbw_bytes, double seconds);
double busbw_gbps(Collective c, int nranks, std::uint64_t algbw_bytes, double seconds);

}  // namespace p2p::doc
