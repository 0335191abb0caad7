// Reading an NCCL INFO log line by line: the NCCL messages of each line (several when processes
// wrote at once), the version, ring and channel counts, what is unreadable, and the reading of
// several logs as one. Connection lines, init lines and P2P explanations have files of their own
// (transport_log_connections.cpp, transport_log_ranks.cpp, transport_log_explanations.cpp).
#include "nccl/transport_log.hpp"

#include <cctype>
#include <charconv>
#include <regex>
#include <sstream>
#include <system_error>

#include "common/ansi_escapes.hpp"
#include "common/text.hpp"
#include "nccl/json_util.hpp"
#include "nccl/transport_log_support.hpp"

namespace p2p::nccl {

int small_int(const std::string& digits) {
  int v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size()) throw UnreadableLine{};
  return v;
}

int rank_int(const std::string& digits) {
  const int v = small_int(digits);
  if (v < 0 || v > 4095) throw UnreadableLine{};
  return v;
}

namespace {

// rings.cc: "Channel 00/24 :    0   1" (the ring order; printed by rank 0).
const std::regex& ring_re() {
  static const std::regex re(R"(^Channel (\d+)/(\d+) :(?: +\d+)+(?: *\.\.\.)?\s*$)");
  return re;
}

// NCCL writes at most about 1 KiB per message; std::regex recurses per character and can
// overflow the stack on a line of ~100 KiB, so longer lines are not NCCL's and are skipped.
constexpr std::size_t kMaxLogLineBytes = 4096;

bool has_foreign_bytes(const std::string& line) {
  for (unsigned char c : line)
    if ((c < 0x20 && c != '\t') || c == 0x7f) return true;
  return false;
}

std::optional<int> number_before(const std::string& msg, const std::string& label) {
  const std::regex re("(\\d+) " + label);
  std::smatch m;
  if (std::regex_search(msg, m, re)) return small_int(m[1].str());
  return std::nullopt;
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
  if (parse_init_line(msg, prefix, log)) return;
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
  read_topo_file_line(msg, log);
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

}  // namespace

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
  merge_ranks(into, more);
  if (!into.rings) into.rings = more.rings;
  if (!into.coll_channels) into.coll_channels = more.coll_channels;
  if (!into.nvls_channels) into.nvls_channels = more.nvls_channels;
  if (!into.p2p_channels) into.p2p_channels = more.p2p_channels;
  if (!into.p2p_channels_per_peer) into.p2p_channels_per_peer = more.p2p_channels_per_peer;
  if (into.version.empty()) into.version = more.version;
  into.p2p_disabled_by_env = into.p2p_disabled_by_env || more.p2p_disabled_by_env;
  if (into.topo_file.empty()) into.topo_file = more.topo_file;
  into.topo_file_loaded = into.topo_file_loaded || more.topo_file_loaded;
  if (into.topo_file_error.empty()) into.topo_file_error = more.topo_file_error;
  into.warnings.insert(into.warnings.end(), more.warnings.begin(), more.warnings.end());
  for (const auto& e : more.p2p_explanations) add_explanation(into, e);
  into.nccl_lines += more.nccl_lines;
  into.unreadable_lines += more.unreadable_lines;
  // One file may name the version (rank 0's) or the init line that tells the others' brackets.
  read_bracket_tags(into);
}

}  // namespace p2p::nccl
