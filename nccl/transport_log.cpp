#include "nccl/transport_log.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "nccl/json_util.hpp"

namespace p2p::nccl {

namespace {

// NCCL formats each message into a 1024-byte buffer, so a longer line is not NCCL's: it is
// skipped, never matched (libstdc++'s std::regex recurses once per character and overflows the
// stack on lines of tens of KiB).
constexpr std::size_t kMaxLineBytes = 4096;

// A number NCCL printed (ranks, devices, channels, counts); nullopt past int range, so a line
// with "Channel 99999999999" is not NCCL's rather than an exception out of std::stoi.
std::optional<int> small_number(const std::string& digits) {
  int v = 0;
  const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (err != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return v;
}

// "Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer" (p2p.cc), "Channel 00 : 0[0] -> 1[1]
// via SHM/direct/direct" (shm.cc has no connection index), "Channel 00/0 : 0[0] -> 8[0] [send]
// via NET/IB/0/GDRDMA" (net.cc logs both ends, the receiver with the sender first).
const std::regex& connection_re() {
  static const std::regex re(
      R"(^Channel (\d+)(?:/(\d+))? : (\d+)\[(\d+)\] -> (\d+)\[(\d+)\](?: \[(?:send|receive)\])? via (.+?)\s*$)");
  return re;
}
// rings.cc: "Channel 00/24 :    0   1" (the ring order; printed by rank 0).
const std::regex& ring_re() {
  static const std::regex re(R"(^Channel (\d+)/(\d+) :(?: +\d+)+(?: *\.\.\.)?\s*$)");
  return re;
}
const std::regex& complete_re() {
  static const std::regex re(
      R"(rank (\d+) nranks (\d+) cudaDev (\d+) nvmlDev (\d+) busId ([0-9a-fA-F]+) .*Init COMPLETE)");
  return re;
}

std::optional<int> number_before(const std::string& msg, const std::string& label) {
  const std::regex re("(\\d+) " + label);
  std::smatch m;
  if (std::regex_search(msg, m, re)) return small_number(m[1].str());
  return std::nullopt;
}

void parse_info(const std::string& msg, NcclLog& log) {
  std::smatch m;
  // The regexes only where their literal text is (logs of many ranks run to tens of MiB, and
  // std::regex is slow): both Channel forms start so, and the rank line ends so.
  const bool channel_line = msg.rfind("Channel ", 0) == 0;
  if (channel_line && std::regex_match(msg, m, connection_re())) {
    const auto channel = small_number(m[1].str());
    const auto conn_index = m[2].matched ? small_number(m[2].str()) : std::optional<int>(-1);
    const auto src_rank = small_number(m[3].str());
    const auto src_device = small_number(m[4].str());
    const auto dst_rank = small_number(m[5].str());
    const auto dst_device = small_number(m[6].str());
    if (!channel || !conn_index || !src_rank || !src_device || !dst_rank || !dst_device) return;
    LoggedConnection c;
    c.channel = *channel;
    c.conn_index = *conn_index;
    c.src_rank = *src_rank;
    c.src_device = *src_device;
    c.dst_rank = *dst_rank;
    c.dst_device = *dst_device;
    c.via = m[7].str();
    c.transport = transport_class(c.via);
    log.connections.push_back(std::move(c));
    return;
  }
  if (channel_line && std::regex_match(msg, m, ring_re())) {
    if (const auto rings = small_number(m[2].str())) log.rings = rings;
    return;
  }
  if (msg.find("coll channels") != std::string::npos) {
    log.coll_channels = number_before(msg, "coll channels");
    if (auto v = number_before(msg, "nvls channels")) log.nvls_channels = v;
    if (auto v = number_before(msg, "p2p channels,")) log.p2p_channels = v;
    if (auto v = number_before(msg, "p2p channels per peer")) log.p2p_channels_per_peer = v;
    return;
  }
  if (msg.find("Init COMPLETE") != std::string::npos && std::regex_search(msg, m, complete_re())) {
    const auto rank = small_number(m[1].str());
    const auto nranks = small_number(m[2].str());
    const auto cuda_device = small_number(m[3].str());
    const auto nvml_device = small_number(m[4].str());
    if (!rank || !nranks || !cuda_device || !nvml_device) return;
    LoggedRank r;
    r.rank = *rank;
    r.nranks = *nranks;
    r.cuda_device = *cuda_device;
    r.nvml_device = *nvml_device;
    r.bus_id = m[5].str();
    auto same = std::find_if(log.ranks.begin(), log.ranks.end(), [&](const LoggedRank& x) { return x.rank == r.rank; });
    if (same != log.ranks.end()) {
      *same = r;
    } else {
      log.ranks.push_back(r);
    }
    return;
  }
  const std::string version_tag = "NCCL version ";
  if (msg.rfind(version_tag, 0) == 0) {
    std::istringstream rest(msg.substr(version_tag.size()));
    rest >> log.version;
    return;
  }
  if (msg.rfind("NCCL_P2P_DISABLE set by environment to 1", 0) == 0) log.p2p_disabled_by_env = true;
}

}  // namespace

std::string transport_class(const std::string& via) {
  const auto starts = [&](const char* prefix) { return via.rfind(prefix, 0) == 0; };
  if (starts("P2P/direct pointer")) return "P2P/direct";
  if (starts("P2P/CUMEM")) return "P2P/CUMEM";
  if (starts("P2P/IPC")) return "P2P/IPC";
  if (starts("P2P/MNNVL")) return "P2P/MNNVL";
  if (starts("P2P/indirect")) return "P2P/indirect";
  if (starts("SHM")) return "SHM";
  if (starts("NET/")) {
    const auto end = via.find('/', 4);
    return via.substr(0, end);
  }
  return via.substr(0, via.find('/'));
}

NcclLog parse_nccl_log(const std::string& text) {
  NcclLog log;
  std::istringstream in(text);
  std::string line;
  const std::string info_tag = "NCCL INFO ";
  const std::string warn_tag = "NCCL WARN ";
  while (std::getline(in, line)) {
    if (line.size() > kMaxLineBytes) continue;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Lines start with "host:pid:tid [dev] " (optionally a timestamp before it); the message
    // follows the level tag.
    auto at = line.find(info_tag);
    if (at != std::string::npos) {
      parse_info(line.substr(at + info_tag.size()), log);
      continue;
    }
    at = line.find(warn_tag);
    if (at != std::string::npos) log.warnings.push_back(line.substr(at + warn_tag.size()));
  }
  return log;
}

TransportMatrix transport_matrix(const NcclLog& log, int nranks) {
  TransportMatrix m;
  m.nranks = nranks;
  m.cells.assign(static_cast<std::size_t>(std::max(nranks, 0)), std::vector<TransportCell>(static_cast<std::size_t>(std::max(nranks, 0))));
  std::map<std::pair<int, int>, std::set<std::string>> transports;
  std::map<std::pair<int, int>, std::set<int>> channels;
  for (const auto& c : log.connections) {
    if (c.src_rank < 0 || c.dst_rank < 0 || c.src_rank >= nranks || c.dst_rank >= nranks) continue;
    transports[{c.src_rank, c.dst_rank}].insert(c.transport);
    channels[{c.src_rank, c.dst_rank}].insert(c.channel);
  }
  for (const auto& [pair, names] : transports) {
    auto& cell = m.cells[static_cast<std::size_t>(pair.first)][static_cast<std::size_t>(pair.second)];
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

std::string cell_label(const TransportCell& cell) {
  if (cell.transports.empty()) return "-";
  std::string label;
  for (const auto& t : cell.transports) label += (label.empty() ? "" : "+") + t;
  return label;
}

void to_json(nlohmann::json& j, const TransportMatrix& m) {
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& row : m.cells) {
    nlohmann::json r = nlohmann::json::array();
    for (const auto& c : row) r.push_back({{"transports", c.transports}, {"channels", c.channels}});
    cells.push_back(r);
  }
  j = {{"schema", "p2pcheck.nccl_transport_matrix"},
       {"version", TransportMatrix::kVersion},
       {"nranks", m.nranks},
       {"cells", cells},
       {"rings", optional_json(m.rings)},
       {"coll_channels", optional_json(m.coll_channels)},
       {"p2p_channels", optional_json(m.p2p_channels)},
       {"nccl_version_logged", m.nccl_version},
       {"nccl_saw_p2p_disable", m.nccl_saw_p2p_disable},
       {"warnings", m.warnings}};
}

void from_json(const nlohmann::json& j, TransportMatrix& m) {
  require_schema(j, "p2pcheck.nccl_transport_matrix", TransportMatrix::kVersion);
  m.nranks = integer_at(j, "nranks", 0, kMaxRanks);
  // Square, one row and column per rank: the tables index cells[src][dst] for every pair.
  const nlohmann::json& cells = j.at("cells");
  const auto n = static_cast<std::size_t>(m.nranks);
  const auto square = [n](const nlohmann::json& v) { return v.is_array() && v.size() == n; };
  if (!square(cells) || !std::all_of(cells.begin(), cells.end(), square)) {
    throw InputError("`cells`: expected " + std::to_string(n) + " x " + std::to_string(n) +
                     " transport cells, one per pair of ranks");
  }
  m.cells.clear();
  for (const auto& row : cells) {
    std::vector<TransportCell> r;
    for (const auto& c : row) {
      TransportCell cell;
      cell.transports = c.at("transports").get<std::vector<std::string>>();
      cell.channels = integer_at(c, "channels", 0, kMaxCount);
      r.push_back(std::move(cell));
    }
    m.cells.push_back(std::move(r));
  }
  m.rings = optional_integer_at(j, "rings", 0, kMaxCount);
  m.coll_channels = optional_integer_at(j, "coll_channels", 0, kMaxCount);
  m.p2p_channels = optional_integer_at(j, "p2p_channels", 0, kMaxCount);
  m.nccl_version = j.at("nccl_version_logged").get<std::string>();
  m.nccl_saw_p2p_disable = j.at("nccl_saw_p2p_disable").get<bool>();
  m.warnings = j.at("warnings").get<std::vector<std::string>>();
}

}  // namespace p2p::nccl
