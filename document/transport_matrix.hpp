// Which transports NCCL opened between each ordered pair of ranks, as the results document
// keeps it (schema p2pcheck.nccl_transport_matrix v2). nccl/transport_log.hpp builds it from
// NCCL's own log; this is the record, readable on any host.
//
// Sparse: only the pairs NCCL connected are kept, so its size follows the log, not the square of
// the highest rank a line names (a 176-byte line naming rank 4095 made a 4095 x 4095 matrix of
// 531 MB). Version 1 documents (a dense `cells` square) still read.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace p2p::doc {

// Which transports connected each ordered pair of ranks and over how many channels.
struct TransportCell {
  std::vector<std::string> transports;  // sorted, unique; empty = NCCL opened no connection
  int channels = 0;                     // distinct channel ids seen for the pair
};

struct TransportMatrix {
  static constexpr int kVersion = 2;
  int nranks = 0;
  // (src rank, dst rank) -> cell, for the pairs NCCL connected only (both ranks < nranks).
  std::map<std::pair<int, int>, TransportCell> pairs;
  std::optional<int> rings;
  std::optional<int> coll_channels;
  std::optional<int> p2p_channels;
  std::string nccl_version;           // as the log printed it
  bool nccl_saw_p2p_disable = false;  // NCCL logged "NCCL_P2P_DISABLE set by environment to 1"
  std::vector<std::string> warnings;
  // NCCL_TOPO_FILE as NCCL logged it, and what became of it ("loaded", "NOT read (...)"); "" where
  // none was set. Written to JSON only where set.
  std::string topo_file, topo_file_state;

  // The pair's cell; an empty one where NCCL connected nothing.
  const TransportCell& cell(int src, int dst) const;
};

// The short label a matrix cell shows: "P2P/direct", "SHM", "P2P/CUMEM+SHM", "-" for none.
std::string cell_label(const TransportCell& cell);

void to_json(nlohmann::json& j, const TransportMatrix& m);
// Version 2 (`pairs`) and version 1 (`cells`, one per ordered pair of ranks).
void from_json(const nlohmann::json& j, TransportMatrix& m);

}  // namespace p2p::doc
