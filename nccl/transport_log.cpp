#include "nccl/transport_log.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>
#include <tuple>

#include "common/ansi_escapes.hpp"
#include "common/text.hpp"
#include "nccl/json_util.hpp"

namespace p2p::nccl {

namespace {

// "Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer" (p2p.cc), "Channel 00 : 0[0] -> 1[1]
// via SHM/direct/direct" (shm.cc has no connection index), "Channel 00/0 : 0[0] -> 8[0] [send]
// via NET/IB/0/GDRDMA" (net.cc logs both ends, the receiver with the sender first). Releases
// before 2.7 said "Ring 00 : 3[3] -> 2[2] via P2P/IPC", 2.4 also without brackets ("Ring 00 : 35 ->
// 34 [send] via NET/Socket/0") and "via direct shared memory". The via text is one word except
// those two; what follows it is not NCCL's transport: some releases append " comm 0x.. nRanks N",
// and a pasted log may carry the next process's prefix on the same line.
const std::regex& connection_re() {
  static const std::regex re(
      R"(^(?:Channel|Ring) (\d+)(?:/(\d+))? : (\d+)(?:\[([0-9a-fA-F]+)\])? -> (\d+)(?:\[([0-9a-fA-F]+)\])?(?: \[(send|receive)\])? via (P2P/direct pointer(?:/\S+)?|direct shared memory|\S+)(?:\s.*)?$)");
  return re;
}
// The start of a connection line cut short ("Channel 04/1 : 3[1] -> 0[0] [re", "Channel"): not
// a ring order ("Channel 00/02 :    0   1") nor a 2.19+ ring neighbour line ("Ring 02 : 2 -> 0 ->
// 1"), both of which lack the "[" after the first rank.
const std::regex& cut_connection_re() {
  static const std::regex re(
      R"(^(?:Channel|Ring)(?: \d+(?:/\d+)?(?: :(?: \d+(?:\[[0-9a-fA-F]*(?:\](?: ->.*)?)?)?)?)?)?$)");
  return re;
}
// rings.cc: "Channel 00/24 :    0   1" (the ring order; printed by rank 0).
const std::regex& ring_re() {
  static const std::regex re(R"(^Channel (\d+)/(\d+) :(?: +\d+)+(?: *\.\.\.)?\s*$)");
  return re;
}
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

// A number NCCL printed: ranks, channels, devices, pids. Anything that does not fit an int (a
// mangled or crafted line) makes the line unreadable instead of throwing out_of_range.
struct UnreadableLine {};
int small_int(const std::string& digits) {
  int v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size()) throw UnreadableLine{};
  return v;
}

// The process that wrote a line, from its "host:pid:tid [dev] " prefix.
struct LineWriter {
  std::string host;
  int pid = 0;
  int cuda_device = 0;
};

std::optional<LineWriter> writer_of_prefix(const std::string& prefix) {
  std::smatch p;
  if (!std::regex_search(prefix, p, prefix_re())) return std::nullopt;
  return LineWriter{p[1].str(), small_int(p[2].str()), small_int(p[4].str())};
}

// Ranks, rank counts and channels size the matrices built from a log: beyond 4095 the line is
// not one NCCL wrote (NCCL_MAX_CHANNELS and real communicator sizes are far below).
int rank_int(const std::string& digits) {
  const int v = small_int(digits);
  if (v < 0 || v > 4095) throw UnreadableLine{};
  return v;
}

// NCCL writes at most about 1 KiB per message; std::regex recurses per character and can
// overflow the stack on a line of ~100 KiB, so longer lines are not NCCL's and are skipped.
constexpr std::size_t kMaxLogLineBytes = 4096;

bool has_foreign_bytes(const std::string& line) {
  for (unsigned char c : line)
    if ((c < 0x20 && c != '\t') || c == 0x7f) return true;
  return false;
}

void add_explanation(NcclLog& log, const std::string& msg) {
  if (std::find(log.p2p_explanations.begin(), log.p2p_explanations.end(), msg) ==
      log.p2p_explanations.end())
    log.p2p_explanations.push_back(msg);
}

// Lines that say why two GPUs do not use P2P (transport/p2p.cc, graph/paths.cc, the environment).
bool explains_missing_p2p(const std::string& msg) {
  static const char* const kMarkers[] = {
      "P2P is disabled between", "Could not enable P2P",         "NCCL_P2P_DISABLE set by",
      "NCCL_P2P_LEVEL set by",   "NCCL_SHM_DISABLE set by",      "Legacy IPC not supported",
      "cudaDeviceCanAccessPeer", "peer access is not supported", "P2P disabled"};
  for (const char* m : kMarkers)
    if (msg.find(m) != std::string::npos) return true;
  return false;
}

std::optional<int> number_before(const std::string& msg, const std::string& label) {
  const std::regex re("(\\d+) " + label);
  std::smatch m;
  if (std::regex_search(msg, m, re)) return small_int(m[1].str());
  return std::nullopt;
}

// A connection line read into log.connections; false when msg is not one.
bool parse_connection(const std::string& msg, NcclLog& log) {
  std::smatch m;
  if (!std::regex_match(msg, m, connection_re())) return false;
  LoggedConnection c;
  c.channel = rank_int(m[1].str());
  c.conn_index = m[2].matched ? rank_int(m[2].str()) : -1;
  c.src_rank = rank_int(m[3].str());
  c.src_tag = m[4].str();
  c.dst_rank = rank_int(m[5].str());
  c.dst_tag = m[6].str();
  c.logged_by_receiver = m[7].str() == "receive";
  c.via = m[8].str();
  c.transport = transport_class(c.via);
  log.connections.push_back(std::move(c));
  return true;
}

bool looks_like_connection(const std::string& msg) {
  const bool channel_or_ring = msg.rfind("Channel", 0) == 0 || msg.rfind("Ring", 0) == 0;
  return channel_or_ring &&
         (msg.find(" via ") != std::string::npos || std::regex_match(msg, cut_connection_re()));
}

void parse_info(const std::string& msg, const std::string& prefix, NcclLog& log) {
  std::smatch m;
  if (parse_connection(msg, log)) return;
  if (std::regex_match(msg, m, ring_re())) {
    log.rings = rank_int(m[2].str());
    return;
  }
  if (msg.find("coll channels") != std::string::npos) {
    log.coll_channels = number_before(msg, "coll channels");
    if (auto v = number_before(msg, "nvls channels")) log.nvls_channels = v;
    if (auto v = number_before(msg, "p2p channels,")) log.p2p_channels = v;
    if (auto v = number_before(msg, "p2p channels per peer")) log.p2p_channels_per_peer = v;
    return;
  }
  if (std::regex_search(msg, m, init_re())) {
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
    return;
  }
  if (msg.find("Init COMPLETE") != std::string::npos ||
      msg.find("Init START") != std::string::npos || looks_like_connection(msg)) {
    ++log.unreadable_lines;  // looks like an init or connection line, but is cut or mangled
    return;
  }
  const std::string version_tag = "NCCL version ";
  if (msg.rfind(version_tag, 0) == 0) {
    std::istringstream rest(msg.substr(version_tag.size()));
    rest >> log.version;
    return;
  }
  if (msg.rfind("NCCL_P2P_DISABLE set by environment to 1", 0) == 0) log.p2p_disabled_by_env = true;
  if (explains_missing_p2p(msg)) add_explanation(log, msg);
}

struct TaggedMessage {
  bool info = true;    // "NCCL INFO" (else "NCCL WARN")
  std::string prefix;  // the text before the tag: "host:pid:tid [dev] ", maybe more before it
  std::string msg;
};

// The prefix of a message that follows another on the same line: "host:pid:tid [dev] ", for a
// WARN also "file.cc:123 ".
const std::regex& trailing_prefix_re() {
  static const std::regex re(R"([^\s:\]]+:\d+:\d+ \[\d+\] (?:\S+:\d+ )?$)");
  return re;
}

void trim_right(std::string& s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
}

// Every NCCL message of a line. Processes writing at the same moment can leave two messages on
// one line ("h:1:2 [6] NCCL INFO h:1:3 [7] NCCL INFO Ring 04 : 7[7] -> 3[3] via P2P/IPC", or one
// appended after the other's padding in a pasted log): each ends where the next one's prefix
// begins.
std::vector<TaggedMessage> tagged_messages(const std::string& line) {
  static const std::string kInfo = "NCCL INFO ";
  static const std::string kWarn = "NCCL WARN ";   // as long as kInfo
  std::vector<std::pair<std::size_t, bool>> tags;  // position, is INFO
  for (auto at = line.find("NCCL "); at != std::string::npos; at = line.find("NCCL ", at + 1)) {
    if (line.compare(at, kInfo.size(), kInfo) == 0) tags.emplace_back(at, true);
    if (line.compare(at, kWarn.size(), kWarn) == 0) tags.emplace_back(at, false);
  }
  std::vector<TaggedMessage> out;
  if (tags.empty() || line.size() > kMaxLogLineBytes) {
    if (!tags.empty()) out.push_back({tags[0].second, "", ""});  // counted, not read
    return out;
  }
  std::string prefix = line.substr(0, tags[0].first);
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const std::size_t begin = tags[i].first + kInfo.size();
    const std::size_t end = i + 1 < tags.size() ? tags[i + 1].first : line.size();
    std::string msg = line.substr(begin, end - begin);
    std::string next_prefix;
    std::smatch p;
    if (i + 1 < tags.size() && std::regex_search(msg, p, trailing_prefix_re())) {
      next_prefix = p.str(0);
      msg.erase(static_cast<std::size_t>(p.position(0)));
    }
    trim_right(msg);
    out.push_back({tags[i].second, std::move(prefix), std::move(msg)});
    prefix = std::move(next_prefix);
  }
  return out;
}

// "NCCL version 2.5.6+cuda10.2" as rank 0 prints it at some debug levels and in many releases: on
// a line of its own, without the INFO tag (behind an "[1,0]<stdout>:" of mpirun at most). The
// "+cuda" tells it from an application quoting the version ("unhandled cuda error, NCCL
// version 2.7.8").
const std::regex& bare_version_re() {
  static const std::regex re(R"(^NCCL version (\d+\.\d+\.\d+\+cuda\S*))");
  return re;
}

// A line without an NCCL tag: the application's own output, or what NCCL wrote without one.
void read_untagged_line(std::string line, NcclLog& log) {
  if (line.size() > kMaxLogLineBytes) return;
  if (has_foreign_bytes(line)) {
    // Not an NCCL line (the application's own output), unless it is a mangled one.
    if (line.find("NCCL") != std::string::npos) ++log.unreadable_lines;
    return;
  }
  trim_right(line);
  // The rest of a line whose prefix an interleaving process wrote onto the line before.
  try {
    if (parse_connection(line, log)) {
      ++log.nccl_lines;
      return;
    }
  } catch (const UnreadableLine&) {
    ++log.nccl_lines;
    ++log.unreadable_lines;
    return;
  }
  const auto version_at = line.find("NCCL version ");
  std::smatch v;
  const std::string from_version = version_at == std::string::npos ? "" : line.substr(version_at);
  if (std::regex_search(from_version, v, bare_version_re())) {
    ++log.nccl_lines;
    if (log.version.empty()) log.version = v[1].str();
    return;
  }
  // "host:1:2 [0] NCCL ININFO 10-24 ...": the tag cut by another process's output.
  const bool cut_tag =
      line.find("] NCCL IN") != std::string::npos || line.find("] NCCL WA") != std::string::npos;
  if (cut_tag) {
    ++log.nccl_lines;
    ++log.unreadable_lines;
  }
}

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

// P2P and SHM lines are written by the sending rank's process (p2p.cc, shm.cc log in their send
// setup), NET lines by each end: "[send]" by the sender, "[receive]" by the receiver.
int writing_rank(const LoggedConnection& c) {
  return c.logged_by_receiver ? c.dst_rank : c.src_rank;
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

// "2.5.6+cuda10.2" -> 20506; nullopt when the log named none.
std::optional<int> version_code(const std::string& version) {
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(version.c_str(), "%d.%d.%d", &major, &minor, &patch) != 3) return std::nullopt;
  return major * 10000 + minor * 100 + patch;
}

// 2.18.1's P2P/CUMEM lines print the CUDA device while its other lines print bus ids.
bool always_device(const LoggedConnection& c) { return c.transport == "P2P/CUMEM"; }

// What the brackets of the log's connection lines hold; see NcclLog::bracket_tags.
std::string bracket_tags_of(const NcclLog& log) {
  std::vector<std::string> tags;
  for (const auto& c : log.connections) {
    if (always_device(c)) continue;
    for (const std::string* t : {&c.src_tag, &c.dst_tag})
      if (!t->empty()) tags.push_back(*t);
  }
  if (tags.empty()) return "";
  // p2p.cc and shm.cc printed the device up to 2.4, the bus id (%lx) from 2.5, the NVML device
  // again from 2.18.3.
  if (const auto v = version_code(log.version))
    return *v >= 20500 && *v < 21803 ? "bus_id" : "device";
  for (const auto& t : tags)
    if (t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos) return "bus_id";
  // A GPU's bus id ends in its PCI function, 0, and is never 0 (00:00.0 is the host bridge).
  for (const auto& t : tags)
    if (t == "0" || t.back() != '0') return "device";
  // Tags like "80" and "90" only: an init line's busId or device of the same rank tells.
  for (const auto& c : log.connections) {
    for (const auto& [rank, tag] : {std::pair{c.src_rank, c.src_tag}, {c.dst_rank, c.dst_tag}}) {
      for (const auto& r : log.ranks) {
        if (r.rank != rank || r.from_prefixes_only || tag.empty()) continue;
        if (!r.bus_id.empty() && tag == r.bus_id) return "bus_id";
        if (tag == std::to_string(r.nvml_device) || tag == std::to_string(r.cuda_device))
          return "device";
      }
    }
  }
  return "bus_id";  // two-digit tags ending in 0, none of them 0: bus ids on bus 00
}

// Reads each bracket as what the log's release printed in it.
void read_bracket_tags(NcclLog& log) {
  log.bracket_tags = bracket_tags_of(log);
  for (auto& c : log.connections) {
    const bool device = always_device(c) || log.bracket_tags == "device";
    for (auto [tag, dev, bus] : {std::tuple{&c.src_tag, &c.src_device, &c.src_bus_id},
                                 std::tuple{&c.dst_tag, &c.dst_device, &c.dst_bus_id}}) {
      *dev = -1;
      bus->clear();
      if (tag->empty()) continue;
      if (!device) {
        *bus = log.bracket_tags == "bus_id" ? *tag : "";
        continue;
      }
      // 2.18.1's CUMEM lines print the device in hex (%x); every other release in decimal.
      const int base = always_device(c) && log.bracket_tags == "bus_id" ? 16 : 10;
      int v = 0;
      const auto [end, ec] = std::from_chars(tag->data(), tag->data() + tag->size(), v, base);
      if (ec == std::errc() && end == tag->data() + tag->size() && v < 4096) *dev = v;
    }
  }
}

}  // namespace

std::string transport_class(const std::string& via) {
  const auto starts = [&](const char* prefix) { return via.rfind(prefix, 0) == 0; };
  if (starts("P2P/direct pointer")) return "P2P/direct";
  if (starts("P2P/CUMEM")) return "P2P/CUMEM";
  if (starts("P2P/IPC")) return "P2P/IPC";
  if (starts("P2P/MNNVL")) return "P2P/MNNVL";
  if (starts("P2P/indirect")) return "P2P/indirect";
  if (starts("SHM") || starts("direct shared memory")) return "SHM";  // the latter: before 2.7
  if (starts("NET/")) {
    const auto end = via.find('/', 4);
    return via.substr(0, end);
  }
  return via.substr(0, via.find('/'));
}

NcclLog parse_nccl_log(const std::string& text) {
  NcclLog log;
  RankWriters writers;
  // A log saved by a Windows editor starts with a UTF-8 byte order mark, which would become part
  // of the first line's host name.
  std::istringstream in(without_bom(text));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // vLLM and Ray colour their line prefixes: "\x1b[36m(VllmWorkerProcess pid=7)\x1b[0;0m
    // host:..."; the escapes are no part of NCCL's text and would make the line look mangled.
    line = strip_ansi_escapes(line);
    // Lines start with "host:pid:tid [dev] " (optionally a timestamp, an MPI or Ray tag before
    // it); the message follows the level tag.
    const std::vector<TaggedMessage> messages = tagged_messages(line);
    if (messages.empty()) {
      read_untagged_line(line, log);
      continue;
    }
    ++log.nccl_lines;
    if (has_foreign_bytes(line) || line.size() > kMaxLogLineBytes) {
      ++log.unreadable_lines;
      continue;
    }
    for (const TaggedMessage& t : messages) {
      if (t.info) {
        try {
          const std::size_t connections = log.connections.size();
          parse_info(t.msg, t.prefix, log);
          const auto writer = writer_of_prefix(t.prefix);
          if (log.connections.size() > connections && writer)
            writers.add(writing_rank(log.connections.back()), *writer);
        } catch (const UnreadableLine&) {
          ++log.unreadable_lines;
        }
      } else {
        log.warnings.push_back(t.msg);
        if (explains_missing_p2p(t.msg)) add_explanation(log, t.msg);
      }
    }
  }
  add_ranks_from_prefixes(log, writers);
  read_bracket_tags(log);
  return log;
}

void merge_nccl_log(NcclLog& into, const NcclLog& more) {
  into.connections.insert(into.connections.end(), more.connections.begin(), more.connections.end());
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
  if (!into.rings) into.rings = more.rings;
  if (!into.coll_channels) into.coll_channels = more.coll_channels;
  if (!into.nvls_channels) into.nvls_channels = more.nvls_channels;
  if (!into.p2p_channels) into.p2p_channels = more.p2p_channels;
  if (!into.p2p_channels_per_peer) into.p2p_channels_per_peer = more.p2p_channels_per_peer;
  if (into.version.empty()) into.version = more.version;
  into.p2p_disabled_by_env = into.p2p_disabled_by_env || more.p2p_disabled_by_env;
  into.warnings.insert(into.warnings.end(), more.warnings.begin(), more.warnings.end());
  for (const auto& e : more.p2p_explanations) add_explanation(into, e);
  into.nccl_lines += more.nccl_lines;
  into.unreadable_lines += more.unreadable_lines;
  // One file may name the version (rank 0's) or the init line that tells the others' brackets.
  read_bracket_tags(into);
}

doc::TransportMatrix transport_matrix(const NcclLog& log, int nranks) {
  doc::TransportMatrix m;
  m.nranks = std::max(nranks, 0);
  std::map<std::pair<int, int>, std::set<std::string>> transports;
  std::map<std::pair<int, int>, std::set<int>> channels;
  for (const auto& c : log.connections) {
    if (c.src_rank < 0 || c.dst_rank < 0 || c.src_rank >= nranks || c.dst_rank >= nranks) continue;
    transports[{c.src_rank, c.dst_rank}].insert(c.transport);
    channels[{c.src_rank, c.dst_rank}].insert(c.channel);
  }
  for (const auto& [pair, names] : transports) {
    auto& cell = m.pairs[pair];
    cell.transports.assign(names.begin(), names.end());
    cell.channels = static_cast<int>(channels[pair].size());
  }
  m.rings = log.rings;
  m.coll_channels = log.coll_channels;
  m.p2p_channels = log.p2p_channels;
  m.nccl_version = log.version;
  m.nccl_saw_p2p_disable = log.p2p_disabled_by_env;
  m.warnings = log.warnings;
  return m;
}

}  // namespace p2p::nccl
