// What NCCL says it did, read from its own INFO log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS with
// INIT,P2P,SHM,NET, NCCL_DEBUG_FILE). Pure parsing of text: the CPU tests feed it fixture logs
// in the formats of NCCL's transport/p2p.cc, shm.cc, net.cc, graph/rings.cc and init.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace p2p::nccl {

// One "Channel CC/I : a[da] -> b[db] via ..." line: the connection rank a opened to rank b.
struct LoggedConnection {
  int channel = 0;
  int conn_index = -1;  // the "/I" part; SHM lines have none
  int src_rank = 0;
  int src_device = 0;  // NCCL prints the NVML index here
  int dst_rank = 0;
  int dst_device = 0;
  std::string transport;  // transport_class(via)
  std::string via;        // text after "via ", e.g. "P2P/CUMEM/read", "SHM/direct/direct"
};

// One "... rank R nranks N cudaDev C nvmlDev V busId B ... Init COMPLETE" line.
struct LoggedRank {
  int rank = 0;
  int nranks = 0;
  int cuda_device = 0;
  int nvml_device = 0;
  std::string bus_id;  // as NCCL prints it: hex without separators ("18000")
};

struct NcclLog {
  std::vector<LoggedConnection> connections;
  std::vector<LoggedRank> ranks;  // one per rank (the last communicator's line wins)
  std::optional<int> rings;       // from "Channel 00/24 :  0 1" (rank 0 prints its rings)
  std::optional<int> coll_channels;
  std::optional<int> nvls_channels;
  std::optional<int> p2p_channels;
  std::optional<int> p2p_channels_per_peer;
  std::string version;                // "2.28.3+cuda12.9" from "NCCL version ..."
  bool p2p_disabled_by_env = false;   // "NCCL_P2P_DISABLE set by environment to 1"
  std::vector<std::string> warnings;  // text of every "NCCL WARN" line
};

NcclLog parse_nccl_log(const std::string& text);

// The transport family of a "via" text: P2P/direct (same process, plain pointers), P2P/CUMEM,
// P2P/IPC, P2P/MNNVL, P2P/indirect (through another GPU), SHM (through host memory),
// NET/<plugin> (IB, Socket, ...). Anything else: its first path element.
std::string transport_class(const std::string& via);

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
  std::string nccl_version;  // as the log printed it
  bool nccl_saw_p2p_disable = false;  // NCCL logged "NCCL_P2P_DISABLE set by environment to 1"
  std::vector<std::string> warnings;
};

TransportMatrix transport_matrix(const NcclLog& log, int nranks);

// The short label a matrix cell shows: "P2P/direct", "SHM", "P2P/CUMEM+SHM", "-" for none.
std::string cell_label(const TransportCell& cell);

void to_json(nlohmann::json& j, const TransportMatrix& m);
void from_json(const nlohmann::json& j, TransportMatrix& m);

}  // namespace p2p::nccl
