#include "document/transport_matrix.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "document/json_limits.hpp"

namespace p2p::doc {

namespace {

TransportCell read_cell(const nlohmann::json& c) {
  TransportCell cell;
  cell.transports = c.at("transports").get<std::vector<std::string>>();
  cell.channels = integer_at(c, "channels", 0, kMaxCount);
  return cell;
}

// Version 1: a square of cells, one row and column per rank; only the connected ones are kept.
void read_dense_cells(const nlohmann::json& j, TransportMatrix& m) {
  const nlohmann::json& cells = j.at("cells");
  const auto n = static_cast<std::size_t>(m.nranks);
  const auto square = [n](const nlohmann::json& v) { return v.is_array() && v.size() == n; };
  if (!square(cells) || !std::all_of(cells.begin(), cells.end(), square)) {
    throw InputError("`cells`: expected " + std::to_string(n) + " x " + std::to_string(n) +
                     " transport cells, one per pair of ranks");
  }
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t d = 0; d < n; ++d) {
      TransportCell cell = read_cell(cells[s][d]);
      if (!cell.transports.empty())
        m.pairs.emplace(std::make_pair(static_cast<int>(s), static_cast<int>(d)), std::move(cell));
    }
  }
}

// Version 2: the connected pairs, each once, both ranks below nranks.
void read_pairs(const nlohmann::json& j, TransportMatrix& m) {
  const nlohmann::json& pairs = j.at("pairs");
  if (!pairs.is_array()) throw InputError("`pairs`: expected an array of connected rank pairs");
  for (const auto& p : pairs) {
    if (!p.is_object()) throw InputError("`pairs`: every entry must be an object");
    if (m.nranks == 0) throw InputError("`pairs`: a pair of ranks where nranks is 0");
    const int src = integer_at(p, "src", 0, m.nranks - 1);
    const int dst = integer_at(p, "dst", 0, m.nranks - 1);
    if (!m.pairs.emplace(std::make_pair(src, dst), read_cell(p)).second)
      throw InputError("`pairs`: rank " + std::to_string(src) + " -> " + std::to_string(dst) +
                       " appears twice");
  }
}

}  // namespace

const TransportCell& TransportMatrix::cell(int src, int dst) const {
  static const TransportCell kNone;
  const auto it = pairs.find({src, dst});
  return it == pairs.end() ? kNone : it->second;
}

std::string cell_label(const TransportCell& cell) {
  if (cell.transports.empty()) return "-";
  std::string label;
  for (const auto& t : cell.transports) label += (label.empty() ? "" : "+") + t;
  return label;
}

void to_json(nlohmann::json& j, const TransportMatrix& m) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [pair, c] : m.pairs) {
    if (c.transports.empty()) continue;  // no connection: not a pair of the record
    pairs.push_back({{"src", pair.first},
                     {"dst", pair.second},
                     {"transports", c.transports},
                     {"channels", c.channels}});
  }
  j = {{"schema", "p2pcheck.nccl_transport_matrix"},
       {"version", TransportMatrix::kVersion},
       {"nranks", m.nranks},
       {"pairs", std::move(pairs)},
       {"rings", optional_json(m.rings)},
       {"coll_channels", optional_json(m.coll_channels)},
       {"p2p_channels", optional_json(m.p2p_channels)},
       {"nccl_version_logged", m.nccl_version},
       {"nccl_saw_p2p_disable", m.nccl_saw_p2p_disable},
       {"warnings", m.warnings}};
  if (!m.topo_file.empty())
    j["topology_file"] = {{"path", m.topo_file}, {"state", m.topo_file_state}};
}

void from_json(const nlohmann::json& j, TransportMatrix& m) {
  const int version = j.contains("version") && j.at("version") == 1 ? 1 : TransportMatrix::kVersion;
  require_schema(j, "p2pcheck.nccl_transport_matrix", version);
  m.nranks = integer_at(j, "nranks", 0, kMaxRanks);
  m.pairs.clear();
  if (version == 1) {
    read_dense_cells(j, m);
  } else {
    read_pairs(j, m);
  }
  m.rings = optional_integer_at(j, "rings", 0, kMaxCount);
  m.coll_channels = optional_integer_at(j, "coll_channels", 0, kMaxCount);
  m.p2p_channels = optional_integer_at(j, "p2p_channels", 0, kMaxCount);
  m.nccl_version = j.at("nccl_version_logged").get<std::string>();
  m.nccl_saw_p2p_disable = j.at("nccl_saw_p2p_disable").get<bool>();
  m.warnings = j.at("warnings").get<std::vector<std::string>>();
  if (j.contains("topology_file")) {
    m.topo_file = j.at("topology_file").at("path").get<std::string>();
    m.topo_file_state = j.at("topology_file").at("state").get<std::string>();
  }
}

}  // namespace p2p::doc
