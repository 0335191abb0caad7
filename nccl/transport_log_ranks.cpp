// The ranks of an NCCL log: its init lines ("rank R nranks N cudaDev C ... Init COMPLETE"), the
// process each line's prefix names, ranks known only from those prefixes, and the ranks of
// several logs merged.
#include <algorithm>
#include <regex>

#include "nccl/transport_log_support.hpp"

namespace p2p::nccl {

namespace {

// init.cc: "[ncclCommInitRank[Config] ]comm 0x.. rank R nranks N cudaDev C [nvmlDev V ][busId B
// ][commId 0x..] - Init COMPLETE" (the function name since 2.19; 2.4-era releases print no
// busId, 2.7 to 2.11 no nvmlDev); the same with "Init START" from 2.19 on.
const std::regex& init_re() {
  static const std::regex re(
      R"(rank (\d+) nranks (\d+) cudaDev (\d+)(?: nvmlDev (\d+))?(?: busId ([0-9a-fA-F]+))?\b.*Init (COMPLETE|START))");
  return re;
}
// The prefix NCCL writes before the level: "host:pid:tid [dev] ".
const std::regex& prefix_re() {
  static const std::regex re(R"(([^\s:\]]+):(\d+):(\d+) \[(\d+)\] $)");
  return re;
}

}  // namespace

std::optional<LineWriter> writer_of_prefix(const std::string& prefix) {
  std::smatch p;
  if (!std::regex_search(prefix, p, prefix_re())) return std::nullopt;
  return LineWriter{p[1].str(), small_int(p[2].str()), small_int(p[4].str())};
}

bool parse_init_line(const std::string& msg, const std::string& prefix, NcclLog& log) {
  std::smatch m;
  if (!std::regex_search(msg, m, init_re())) return false;
  LoggedRank r;
  r.rank = rank_int(m[1].str());
  r.nranks = rank_int(m[2].str());
  r.cuda_device = small_int(m[3].str());
  r.nvml_device = m[4].matched ? small_int(m[4].str()) : r.cuda_device;
  r.bus_id = m[5].str();
  r.complete = m[6].str() == "COMPLETE";
  if (const auto writer = writer_of_prefix(prefix)) {
    r.host = writer->host;
    r.pid = writer->pid;
  }
  auto same = std::find_if(log.ranks.begin(), log.ranks.end(),
                           [&](const LoggedRank& x) { return x.rank == r.rank; });
  if (same == log.ranks.end()) {
    log.ranks.push_back(r);
  } else if (r.complete || !same->complete) {
    *same = r;  // the last communicator's line wins; START never replaces COMPLETE
  }
  return true;
}

// Ranks the log names no init line for, with their host, pid and device from the prefixes of the
// lines their processes wrote; a rank with an init line keeps it, its host filled only where the
// init line had no prefix.
void add_ranks_from_prefixes(NcclLog& log, const RankWriters& writers) {
  for (const auto& [rank_of_writer, w] : writers.by_rank) {
    const int rank = rank_of_writer;  // a plain variable: lambdas cannot capture bindings in C++17
    if (writers.ambiguous.count(rank)) continue;
    auto same = std::find_if(log.ranks.begin(), log.ranks.end(),
                             [&](const LoggedRank& x) { return x.rank == rank; });
    if (same != log.ranks.end()) {
      if (same->host.empty()) {
        same->host = w.host;
        same->pid = w.pid;
      }
      continue;
    }
    LoggedRank r;
    r.rank = rank;
    r.host = w.host;
    r.pid = w.pid;
    r.cuda_device = w.cuda_device;
    r.nvml_device = w.cuda_device;
    r.from_prefixes_only = true;
    log.ranks.push_back(r);
  }
  std::sort(log.ranks.begin(), log.ranks.end(),
            [](const LoggedRank& a, const LoggedRank& b) { return a.rank < b.rank; });
}

void merge_ranks(NcclLog& into, const NcclLog& more) {
  for (const LoggedRank& r : more.ranks) {
    auto same = std::find_if(into.ranks.begin(), into.ranks.end(),
                             [&](const LoggedRank& x) { return x.rank == r.rank; });
    if (same == into.ranks.end()) {
      into.ranks.push_back(r);
    } else if (r.from_prefixes_only != same->from_prefixes_only) {
      // The init line, from either file, is authoritative; prefixes fill only a missing host.
      const LoggedRank& prefixes = same->from_prefixes_only ? *same : r;
      LoggedRank init = same->from_prefixes_only ? r : *same;
      if (init.host.empty()) {
        init.host = prefixes.host;
        init.pid = prefixes.pid;
      }
      *same = init;
    } else if (r.complete || !same->complete) {
      *same = r;
    }
  }
  std::sort(into.ranks.begin(), into.ranks.end(),
            [](const LoggedRank& a, const LoggedRank& b) { return a.rank < b.rank; });
}

}  // namespace p2p::nccl
