// Which transports NCCL opened between each ordered pair of ranks, as the results document
// keeps it (schema p2pcheck.nccl_transport_matrix v1). nccl/transport_log.hpp builds it from
// NCCL's own log; this is the record, readable on any host.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace p2p::doc {

// Which transports connected each ordered pair of ranks and over how many channels.
struct TransportCell {
  std::vector<std::string> transports;  // sorted, unique; empty = NCCL opened no connection
  int channels = 0;                     // distinct channel ids seen for the pair
};

struct TransportMatrix {
  static constexpr int kVersion = 1;
  int nranks = 0;
  std::vector<std::vector<TransportCell>> cells;  // [src][dst]
  std::optional<int> rings;
  std::optional<int> coll_channels;
  std::optional<int> p2p_channels;
  std::string nccl_version;           // as the log printed it
  bool nccl_saw_p2p_disable = false;  // NCCL logged "NCCL_P2P_DISABLE set by environment to 1"
  std::vector<std::string> warnings;
};

// The short label a matrix cell shows: "P2P/direct", "SHM", "P2P/CUMEM+SHM", "-" for none.
std::string cell_label(const TransportCell& cell);

void to_json(nlohmann::json& j, const TransportMatrix& m);
void from_json(const nlohmann::json& j, TransportMatrix& m);

}  // namespace p2p::doc
