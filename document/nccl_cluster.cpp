#include "document/nccl_cluster.hpp"

#include <algorithm>
#include <set>

#include "common/error.hpp"
#include "document/json_limits.hpp"

namespace p2p::doc {

std::vector<std::vector<TransportCell>> host_transport_matrix(const TransportMatrix& ranks,
                                                              const std::vector<int>& rank_host,
                                                              int hosts) {
  const auto h = static_cast<std::size_t>(std::max(hosts, 0));
  std::vector<std::vector<std::set<std::string>>> seen(h, std::vector<std::set<std::string>>(h));
  std::vector<std::vector<TransportCell>> out(h, std::vector<TransportCell>(h));
  const auto known = [&rank_host](int r) {
    return r >= 0 && static_cast<std::size_t>(r) < rank_host.size();
  };
  for (const auto& [pair, cell] : ranks.pairs) {
    if (!known(pair.first) || !known(pair.second)) continue;
    const int ha = rank_host[static_cast<std::size_t>(pair.first)];
    const int hb = rank_host[static_cast<std::size_t>(pair.second)];
    if (ha < 0 || hb < 0 || ha >= hosts || hb >= hosts) continue;
    auto& names = seen[static_cast<std::size_t>(ha)][static_cast<std::size_t>(hb)];
    names.insert(cell.transports.begin(), cell.transports.end());
    auto& into = out[static_cast<std::size_t>(ha)][static_cast<std::size_t>(hb)];
    into.channels = std::max(into.channels, cell.channels);
  }
  for (std::size_t a = 0; a < h; ++a) {
    for (std::size_t b = 0; b < h; ++b)
      out[a][b].transports.assign(seen[a][b].begin(), seen[a][b].end());
  }
  return out;
}

std::vector<std::pair<int, int>> host_pairs_without_network(const NcclCluster& c) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t a = 0; a < c.host_transport.size(); ++a) {
    for (std::size_t b = 0; b < c.host_transport[a].size(); ++b) {
      const auto& t = c.host_transport[a][b].transports;
      if (a == b || t.empty()) continue;
      const bool net = std::any_of(t.begin(), t.end(),
                                   [](const std::string& s) { return s.rfind("NET/", 0) == 0; });
      if (!net) out.emplace_back(static_cast<int>(a), static_cast<int>(b));
    }
  }
  return out;
}

void to_json(nlohmann::json& j, const ClusterRank& r) {
  j = {{"rank", r.rank}, {"process", r.process}, {"host", r.host}, {"hostname", r.hostname}};
}

void from_json(const nlohmann::json& j, ClusterRank& r) {
  r.rank = integer_at(j, "rank", 0, kMaxRanks - 1);
  r.process = integer_at(j, "process", 0, kMaxRanks - 1);
  r.host = integer_at(j, "host", 0, kMaxRanks - 1);
  r.hostname = j.at("hostname").get<std::string>();
}

void to_json(nlohmann::json& j, const HostPairResult& r) {
  j = {{"src_host", r.src_host},
       {"dst_host", r.dst_host},
       {"src_rank", r.src_rank},
       {"dst_rank", r.dst_rank},
       {"round", r.round},
       {"size_bytes", r.size_bytes},
       {"status", r.status},
       {"detail", r.detail},
       {"time_us", optional_json(r.time_us)},
       {"algbw_gbps", optional_json(r.algbw_gbps)},
       {"wrong_elements", optional_json(r.wrong_elements)}};
}

void from_json(const nlohmann::json& j, HostPairResult& r) {
  r.src_host = integer_at(j, "src_host", 0, kMaxRanks - 1);
  r.dst_host = integer_at(j, "dst_host", 0, kMaxRanks - 1);
  r.src_rank = integer_at(j, "src_rank", 0, kMaxRanks - 1);
  r.dst_rank = integer_at(j, "dst_rank", 0, kMaxRanks - 1);
  r.round = integer_at(j, "round", 0, kMaxRanks);
  r.size_bytes = integer_at<std::uint64_t>(j, "size_bytes", 1, kMaxDocumentBytes);
  r.status = j.at("status").get<CollectiveStatus>();
  r.detail = j.at("detail").get<std::string>();
  r.time_us = optional_from<double>(j, "time_us");
  r.algbw_gbps = optional_from<double>(j, "algbw_gbps");
  r.wrong_elements = optional_from<std::uint64_t>(j, "wrong_elements");
}

namespace {

nlohmann::json cell_json(const TransportCell& c) {
  return {{"transports", c.transports}, {"channels", c.channels}};
}

}  // namespace

void to_json(nlohmann::json& j, const NcclCluster& c) {
  nlohmann::json matrix = nlohmann::json::array();
  for (const auto& row : c.host_transport) {
    nlohmann::json r = nlohmann::json::array();
    for (const auto& cell : row) r.push_back(cell_json(cell));
    matrix.push_back(r);
  }
  j = {{"schema", "p2pcheck.nccl_cluster"},
       {"version", NcclCluster::kVersion},
       {"launch", c.launch},
       {"processes", c.processes},
       {"hosts", c.hosts},
       {"ranks", c.ranks},
       {"host_transport", matrix},
       {"host_pairs", c.host_pairs}};
}

void from_json(const nlohmann::json& j, NcclCluster& c) {
  require_schema(j, "p2pcheck.nccl_cluster", NcclCluster::kVersion);
  c.launch = j.at("launch").get<std::string>();
  c.processes = integer_at(j, "processes", 1, kMaxRanks);
  c.hosts = j.at("hosts").get<std::vector<std::string>>();
  c.ranks = j.at("ranks").get<std::vector<ClusterRank>>();
  const std::size_t h = c.hosts.size();
  for (const auto& r : c.ranks) {
    if (static_cast<std::size_t>(r.host) >= h) {
      throw InputError("`ranks`: rank " + std::to_string(r.rank) + " names host " +
                       std::to_string(r.host) + " of " + std::to_string(h));
    }
  }
  const nlohmann::json& matrix = j.at("host_transport");
  const auto square = [h](const nlohmann::json& row) { return row.is_array() && row.size() == h; };
  if (!square(matrix) || !std::all_of(matrix.begin(), matrix.end(), square)) {
    throw InputError("`host_transport`: expected " + std::to_string(h) + " x " + std::to_string(h) +
                     " cells, one per pair of hosts");
  }
  c.host_transport.clear();
  for (const auto& row : matrix) {
    std::vector<TransportCell> r;
    for (const auto& cell : row) {
      TransportCell t;
      t.transports = cell.at("transports").get<std::vector<std::string>>();
      t.channels = integer_at(cell, "channels", 0, kMaxCount);
      r.push_back(std::move(t));
    }
    c.host_transport.push_back(std::move(r));
  }
  c.host_pairs = j.at("host_pairs").get<std::vector<HostPairResult>>();
  for (const auto& p : c.host_pairs) {
    if (static_cast<std::size_t>(p.src_host) >= h || static_cast<std::size_t>(p.dst_host) >= h) {
      throw InputError("`host_pairs`: a pair names a host beyond the " + std::to_string(h) +
                       " listed");
    }
  }
}

}  // namespace p2p::doc
