// The connection lines of an NCCL log ("Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer"):
// reading them, what their brackets hold in each release, the transport family of their "via"
// text, and the rank-by-rank transport matrix built from them.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <system_error>
#include <tuple>

#include "nccl/transport_log_support.hpp"

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

}  // namespace

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

// P2P and SHM lines are written by the sending rank's process (p2p.cc, shm.cc log in their send
// setup), NET lines by each end: "[send]" by the sender, "[receive]" by the receiver.
int writing_rank(const LoggedConnection& c) {
  return c.logged_by_receiver ? c.dst_rank : c.src_rank;
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
  m.topo_file = log.topo_file;
  if (!log.topo_file.empty()) m.topo_file_state = topo_file_state(log);
  return m;
}

}  // namespace p2p::nccl
