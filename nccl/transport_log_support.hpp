// What the readers of NCCL's INFO log (nccl/transport_log*.cpp) share: numbers as NCCL prints
// them, the process that wrote a line, and the reader of each kind of line. Internal to those
// files; callers use nccl/transport_log.hpp.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "nccl/transport_log.hpp"

namespace p2p::nccl {

// Thrown by the readers below for a line that only looks like NCCL's: the line is then counted
// unreadable instead of read.
struct UnreadableLine {};

// A number NCCL printed: ranks, channels, devices, pids. Anything that does not fit an int (a
// mangled or crafted line) makes the line unreadable instead of throwing out_of_range.
int small_int(const std::string& digits);

// Ranks, rank counts and channels size the matrices built from a log: beyond 4095 the line is
// not one NCCL wrote (NCCL_MAX_CHANNELS and real communicator sizes are far below).
int rank_int(const std::string& digits);

// Connection lines (transport_log_connections.cpp).

// A connection line read into log.connections; false when msg is not one.
bool parse_connection(const std::string& msg, NcclLog& log);
// A line that starts like a connection line but is cut short or mangled.
bool looks_like_connection(const std::string& msg);
// The rank whose process wrote a connection line.
int writing_rank(const LoggedConnection& c);
// Reads each bracket as what the log's release printed in it.
void read_bracket_tags(NcclLog& log);

// Init lines and the ranks of a log (transport_log_ranks.cpp).

// The process that wrote a line, from its "host:pid:tid [dev] " prefix.
struct LineWriter {
  std::string host;
  int pid = 0;
  int cuda_device = 0;
};
std::optional<LineWriter> writer_of_prefix(const std::string& prefix);

// Per rank, the process that wrote its connection lines; a rank whose lines name two hosts (two
// communicators numbering their ranks alike) gets none.
struct RankWriters {
  std::map<int, LineWriter> by_rank;
  std::set<int> ambiguous;
  void add(int rank, const LineWriter& w) {
    const auto [it, added] = by_rank.emplace(rank, w);
    if (!added && it->second.host != w.host) ambiguous.insert(rank);
  }
};

// An init line read into log.ranks; false when msg is not one.
bool parse_init_line(const std::string& msg, const std::string& prefix, NcclLog& log);
// Ranks the log names no init line for, from the prefixes of the lines their processes wrote.
void add_ranks_from_prefixes(NcclLog& log, const RankWriters& writers);
// The ranks of `more` merged into those of `into` by rank number.
void merge_ranks(NcclLog& into, const NcclLog& more);

// Lines that explain a missing P2P path (transport_log_explanations.cpp).

bool explains_missing_p2p(const std::string& msg);
// Adds msg to log.p2p_explanations unless it is there already.
void add_explanation(NcclLog& log, const std::string& msg);
// NCCL_TOPO_FILE: set, loaded, or not opened (NcclLog::topo_file*).
void read_topo_file_line(const std::string& msg, NcclLog& log);

}  // namespace p2p::nccl
