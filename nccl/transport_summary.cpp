#include "nccl/transport_summary.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "common/error.hpp"
#include "common/json_util.hpp"
#include "document/nccl_run.hpp"

namespace p2p::nccl {

TransportSummary summarize_transports(
    const std::vector<std::pair<std::string, std::string>>& files_and_texts,
    std::size_t max_connections) {
  TransportSummary r;
  for (const auto& [file, text] : files_and_texts) {
    const NcclLog one = parse_nccl_log(text);
    if (one.nccl_lines == 0)
      throw InputError(
          file +
          ": not an NCCL INFO log: no line carries \"NCCL INFO\" or \"NCCL WARN\" (run with "
          "NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET)");
    r.files.push_back(file);
    merge_nccl_log(r.log, one);
    if (r.log.connections.size() > max_connections)
      throw InputError(
          file + ": with the logs before it, more than " + std::to_string(max_connections) +
          " connection lines, beyond what p2pcheck reads (docs/inputs-and-outputs.md)");
  }
  for (const LoggedRank& k : r.log.ranks) r.nranks = std::max({r.nranks, k.nranks, k.rank + 1});
  for (const LoggedConnection& c : r.log.connections) {
    r.nranks = std::max({r.nranks, c.src_rank + 1, c.dst_rank + 1});
    r.channels[{c.src_rank, c.dst_rank}][c.channel].insert(c.via);
  }
  r.matrix = transport_matrix(r.log, r.nranks);
  return r;
}

namespace {

std::string channel_list(const std::map<int, std::set<std::string>>& by_channel) {
  // Channels that used the same transports are listed together: "ch 00-03 P2P/CUMEM/read".
  std::ostringstream out;
  auto it = by_channel.begin();
  bool first = true;
  while (it != by_channel.end()) {
    auto end = std::next(it);
    int last = it->first;
    while (end != by_channel.end() && end->first == last + 1 && end->second == it->second)
      last = (end++)->first;
    std::string vias;
    for (const auto& v : it->second) vias += (vias.empty() ? "" : " + ") + v;
    char ch[32];
    if (last == it->first) {
      std::snprintf(ch, sizeof ch, "ch %02d", it->first);
    } else {
      std::snprintf(ch, sizeof ch, "ch %02d-%02d", it->first, last);
    }
    out << (first ? "" : "; ") << ch << " " << vias;
    first = false;
    it = end;
  }
  return out.str();
}

std::string init_state(const LoggedRank& k) {
  if (k.from_prefixes_only) return "no init line (host from its lines' prefixes)";
  return k.complete ? "complete" : "started, no COMPLETE line";
}

// The matrix over every rank; beyond doc::kMaxMatrixRanks (a log line may name rank 4095 alone),
// the per-channel list below already says it pair by pair.
std::string transport_grid(const TransportSummary& r) {
  std::ostringstream out;
  if (r.nranks > doc::kMaxMatrixRanks) {
    out << "Transport per ordered pair: " << r.nranks << " ranks, more than "
        << doc::kMaxMatrixRanks
        << " for a matrix; each pair NCCL connected is listed per channel below\n";
    return out.str();
  }
  std::size_t width = 4;
  for (const auto& [pair, c] : r.matrix.pairs)
    width = std::max(width, doc::cell_label(c).size() + 2);
  out << "Transport per ordered pair (row = sending rank, column = receiving rank):\n"
      << std::left << std::setw(6) << "";
  for (int d = 0; d < r.nranks; ++d)
    out << std::setw(static_cast<int>(width)) << ("r" + std::to_string(d));
  out << "\n";
  for (int s = 0; s < r.nranks; ++s) {
    out << std::setw(6) << ("r" + std::to_string(s));
    for (int d = 0; d < r.nranks; ++d)
      out << std::setw(static_cast<int>(width))
          << (s == d ? "X" : doc::cell_label(r.matrix.cell(s, d)));
    out << "\n";
  }
  return out.str();
}

}  // namespace

std::string format_transport_summary(const TransportSummary& r) {
  std::ostringstream out;
  out << "NCCL " << (r.log.version.empty() ? "(version not logged)" : r.log.version) << ", "
      << r.nranks << " rank" << (r.nranks == 1 ? "" : "s") << ", " << r.files.size() << " log file"
      << (r.files.size() == 1 ? "" : "s") << ", " << r.log.nccl_lines << " NCCL lines";
  if (r.log.unreadable_lines > 0)
    out << ", " << r.log.unreadable_lines << " line" << (r.log.unreadable_lines == 1 ? "" : "s")
        << " could not be read";
  out << "\n\n";
  if (!r.log.ranks.empty()) {
    out << std::left << std::setw(6) << "rank" << std::setw(18) << "host" << std::setw(9) << "pid"
        << std::setw(9) << "cudaDev" << std::setw(10) << "busId"
        << "init\n";
    for (const LoggedRank& k : r.log.ranks) {
      out << std::setw(6) << k.rank << std::setw(18) << (k.host.empty() ? "-" : k.host)
          << std::setw(9) << (k.pid ? std::to_string(*k.pid) : "-") << std::setw(9) << k.cuda_device
          << std::setw(10) << k.bus_id << init_state(k) << "\n";
    }
    out << std::right << "\n";
  }
  if (r.log.connections.empty()) {
    out << "NCCL logged no connection (one rank, or NCCL_DEBUG_SUBSYS without P2P,SHM,NET)\n";
  } else {
    out << transport_grid(r) << "\nPer channel:\n";
    for (const auto& [pair, by_channel] : r.channels)
      out << "  " << pair.first << " -> " << pair.second << ": " << channel_list(by_channel)
          << "\n";
  }
  if (!r.log.p2p_explanations.empty()) {
    out << "\nWhy P2P is not used (as NCCL said):\n";
    for (const auto& e : r.log.p2p_explanations) out << "  " << e << "\n";
  }
  if (!r.log.topo_file.empty())
    out << "\nNCCL topology file " << r.log.topo_file << ": " << topo_file_state(r.log) << "\n";
  if (!r.log.warnings.empty()) {
    out << "\nNCCL WARN lines:\n";
    for (const auto& w : r.log.warnings) out << "  " << w << "\n";
  }
  return out.str();
}

void to_json(nlohmann::json& j, const TransportSummary& r) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const LoggedRank& k : r.log.ranks) {
    ranks.push_back({{"rank", k.rank},
                     {"nranks", k.nranks},
                     {"host", k.host},
                     {"pid", optional_json(k.pid)},
                     {"cuda_device", k.cuda_device},
                     {"nvml_device", k.nvml_device},
                     {"bus_id", k.bus_id},
                     {"init_complete", k.complete}});
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [pair, by_channel] : r.channels) {
    nlohmann::json chans = nlohmann::json::array();
    for (const auto& [channel, vias] : by_channel) {
      std::vector<std::string> transports;
      for (const auto& v : vias) transports.push_back(transport_class(v));
      chans.push_back({{"channel", channel}, {"via", vias}, {"transports", transports}});
    }
    const auto& cell = r.matrix.cell(pair.first, pair.second);
    pairs.push_back({{"src_rank", pair.first},
                     {"dst_rank", pair.second},
                     {"transports", cell.transports},
                     {"channels", std::move(chans)}});
  }
  j = nlohmann::json::object();
  write_schema_header(j, "p2pcheck.nccl_transports", TransportSummary::kVersion);
  j["files"] = r.files;
  j["nccl_version"] = r.log.version;
  j["nranks"] = r.nranks;
  j["ranks"] = std::move(ranks);
  j["pairs"] = std::move(pairs);
  j["matrix"] = r.matrix;
  j["p2p_explanations"] = r.log.p2p_explanations;
  j["topology_file"] = r.log.topo_file.empty() ? nlohmann::json(nullptr)
                                               : nlohmann::json{{"path", r.log.topo_file},
                                                                {"loaded", r.log.topo_file_loaded},
                                                                {"error", r.log.topo_file_error}};
  j["warnings"] = r.log.warnings;
  j["nccl_lines"] = r.log.nccl_lines;
  j["unreadable_lines"] = r.log.unreadable_lines;
}

}  // namespace p2p::nccl
