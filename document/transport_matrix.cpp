#include "document/transport_matrix.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "document/json_limits.hpp"

namespace p2p::doc {

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

}  // namespace p2p::doc
