// What NCCL says it did, read from its own INFO log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS with
// INIT,P2P,SHM,NET, NCCL_DEBUG_FILE). Pure parsing of text: the CPU tests feed it fixture logs
// in the formats of NCCL's transport/p2p.cc, shm.cc, net.cc, graph/rings.cc and init.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/transport_matrix.hpp"

namespace p2p::nccl {

// One "Channel CC/I : a[da] -> b[db] via ..." line: the connection rank a opened to rank b.
// What the brackets hold depends on the release (see NcclLog::bracket_tags): a device index
// (2.3-2.4 and 2.18.3+; P2P/CUMEM lines of 2.18.1 too) or a PCI bus id in hex (2.5 to 2.18.2).
struct LoggedConnection {
  int channel = 0;
  int conn_index = -1;  // the "/I" part; SHM lines have none
  int src_rank = 0;
  int src_device = -1;  // the bracket as a device index; -1 when it holds a bus id or nothing
  int dst_rank = 0;
  int dst_device = -1;
  std::string src_tag;  // the bracket text as printed: "1", "1a000", "80" ("" without one)
  std::string dst_tag;
  std::string src_bus_id;  // the bracket when it holds a bus id, as printed ("1a000", "80")
  std::string dst_bus_id;
  bool logged_by_receiver = false;  // a "[receive]" line: written by the dst rank's process
  std::string transport;            // transport_class(via)
  std::string via;                  // text after "via ", e.g. "P2P/CUMEM/read", "SHM/direct/direct"
};

// One "... rank R nranks N cudaDev C nvmlDev V busId B ... Init COMPLETE" line.
struct LoggedRank {
  int rank = 0;
  int nranks = 0;
  int cuda_device = 0;
  int nvml_device = 0;  // NCCL 2.11 and older print none: the CUDA device then
  std::string bus_id;   // as NCCL prints it: hex without separators ("18000")
  std::string host;     // from the line's "host:pid:tid [dev]" prefix; "" without one
  std::optional<int> pid;
  bool complete =
      false;  // "Init COMPLETE" seen (else only "Init START": the rank may have hung in init)
  // No init line of this rank was logged: host, pid and cuda_device come from the prefixes of
  // the connection lines its process wrote (nvml_device is then the CUDA device, bus_id "").
  bool from_prefixes_only = false;
};

struct NcclLog {
  std::vector<LoggedConnection> connections;
  std::vector<LoggedRank> ranks;  // one per rank (the last communicator's line wins); ranks
                                  // without an init line from their lines' prefixes
  // What the connection lines' brackets hold: "device", "bus_id", or "" (no bracket, or nothing
  // tells). Told by the logged version, else by the tags themselves (hex digits; a bus id of a
  // GPU ends in its function 0 and is never 0), else by the init lines.
  std::string bracket_tags;
  std::optional<int> rings;  // from "Channel 00/24 :  0 1" (rank 0 prints its rings)
  std::optional<int> coll_channels;
  std::optional<int> nvls_channels;
  std::optional<int> p2p_channels;
  std::optional<int> p2p_channels_per_peer;
  std::string version;               // "2.28.3+cuda12.9" from "NCCL version ..."
  bool p2p_disabled_by_env = false;  // "NCCL_P2P_DISABLE set by environment to 1"
  // NCCL_TOPO_FILE as NCCL took it ("NCCL_TOPO_FILE set by environment to F", ENV), whether it
  // read it ("Loading topology file F", GRAPH) or could not ("Could not open XML topology file F :
  // ...": NCCL then goes on with the tree it sees, silently at the default log level).
  std::string topo_file;
  bool topo_file_loaded = false;
  std::string topo_file_error;
  std::vector<std::string> warnings;  // text of every "NCCL WARN" line
  // The lines that explain a missing P2P path ("P2P is disabled between connected GPUs 1 and 0",
  // "Could not enable P2P between dev 0(=5000) and dev 1(=8000)", NCCL_P2P_DISABLE/LEVEL set
  // by environment, ...), each once, in the order first seen.
  std::vector<std::string> p2p_explanations;
  int nccl_lines = 0;        // lines carrying "NCCL INFO" or "NCCL WARN"
  int unreadable_lines = 0;  // lines that look like connection or init lines but could not be read,
                             // or carry bytes no log line has (a cut or mangled file)
};

NcclLog parse_nccl_log(const std::string& text);

// Several logs of one run (one per rank, or one per host) read as one: connections and
// explanations in file order, ranks merged by rank number, counts summed.
void merge_nccl_log(NcclLog& into, const NcclLog& more);

// The transport family of a "via" text: P2P/direct (same process, plain pointers), P2P/CUMEM,
// P2P/IPC, P2P/MNNVL, P2P/indirect (through another GPU), SHM (through host memory),
// NET/<plugin> (IB, Socket, ...). Anything else: its first path element.
std::string transport_class(const std::string& via);

// The matrix of a log (document/transport_matrix.hpp) over `nranks` ranks.
doc::TransportMatrix transport_matrix(const NcclLog& log, int nranks);

// What became of the log's NCCL_TOPO_FILE: "loaded", "NOT read (<NCCL's line>): NCCL used the
// tree it sees", or "set (NCCL logged no error opening it)".
std::string topo_file_state(const NcclLog& log);

}  // namespace p2p::nccl
