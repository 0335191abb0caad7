#include "document/nccl_collective.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace p2p::doc {

const std::vector<Collective>& all_collectives() {
  static const std::vector<Collective> all = {Collective::kAllReduce,     Collective::kAllGather,
                                              Collective::kReduceScatter, Collective::kBroadcast,
                                              Collective::kAllToAll,      Collective::kSendRecvRing,
                                              Collective::kSendRecvPair};
  return all;
}

std::string to_string(Collective c) {
  switch (c) {
    case Collective::kAllReduce: return "all_reduce";
    case Collective::kAllGather: return "all_gather";
    case Collective::kReduceScatter: return "reduce_scatter";
    case Collective::kBroadcast: return "broadcast";
    case Collective::kAllToAll: return "alltoall";
    case Collective::kSendRecvRing: return "sendrecv";
    case Collective::kSendRecvPair: return "sendrecv_pairs";
  }
  return "?";
}

Collective parse_collective(const std::string& name, const std::string& what) {
  for (Collective c : all_collectives()) {
    if (to_string(c) == name) return c;
  }
  std::string known;
  for (Collective c : all_collectives()) known += (known.empty() ? "" : ", ") + to_string(c);
  throw InputError(what + ": unknown collective `" + name + "` (expected one of " + known + ")");
}

bool supports_in_place(Collective c) {
  return c == Collective::kAllReduce || c == Collective::kAllGather ||
         c == Collective::kReduceScatter || c == Collective::kBroadcast;
}

CollectiveShape shape_of(Collective c, std::uint64_t bytes, std::size_t element_bytes, int nranks) {
  CollectiveShape s;
  if (element_bytes == 0 || nranks <= 0) return s;
  const std::uint64_t n = static_cast<std::uint64_t>(nranks);
  const std::uint64_t total = bytes / element_bytes;
  // Per-rank slices keep 16-byte alignment so every rank's part starts on a vector boundary.
  const std::uint64_t align_elements = std::max<std::uint64_t>(1, 16 / element_bytes);
  const std::uint64_t slice = (total / n) & ~(align_elements - 1);
  switch (c) {
    case Collective::kAllReduce:
    case Collective::kBroadcast:
    case Collective::kSendRecvRing:
    case Collective::kSendRecvPair:
      s.count = s.send_count = s.recv_count = total;
      s.algbw_bytes = total * element_bytes;
      break;
    case Collective::kAllGather:
      s.count = s.send_count = slice;
      s.recv_count = slice * n;
      s.send_in_place_step = slice;
      s.algbw_bytes = slice * n * element_bytes;
      break;
    case Collective::kReduceScatter:
      s.count = s.recv_count = slice;
      s.send_count = slice * n;
      s.recv_in_place_step = slice;
      s.algbw_bytes = slice * n * element_bytes;
      break;
    case Collective::kAllToAll:
      s.count = slice;
      s.send_count = s.recv_count = slice * n;
      s.algbw_bytes = slice * n * element_bytes;
      break;
  }
  s.size_bytes = std::max(s.send_count, s.recv_count) * element_bytes;
  return s;
}

double bus_factor(Collective c, int nranks) {
  if (nranks <= 0) return 0.0;
  const double n = nranks;
  switch (c) {
    case Collective::kAllReduce: return 2.0 * (n - 1.0) / n;
    case Collective::kAllGather:
    case Collective::kReduceScatter:
    case Collective::kAllToAll: return (n - 1.0) / n;
    case Collective::kBroadcast:
    case Collective::kSendRecvRing:
    case Collective::kSendRecvPair: return 1.0;
  }
  return 0.0;
}

double algbw_gbps(std::uint64_t algbw_bytes, double seconds) {
  if (seconds <= 0.0) return 0.0;
  return static_cast<double>(algbw_bytes) / 1.0e9 / seconds;
}

double busbw_gbps(Collective c, int nranks, std::uint64_t algbw_bytes, double seconds) {
  return algbw_gbps(algbw_bytes, seconds) * bus_factor(c, nranks);
}

}  // namespace p2p::doc
