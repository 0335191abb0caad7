#include "report/nccl_transport_view.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

#include "document/nccl_run.hpp"

namespace p2p::report {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The topology's index for a rank's GPU, matched by PCI bus id.
std::optional<std::size_t> topology_index(const doc::NcclRun& run, int rank,
                                          const topo::TopologySnapshot& t) {
  for (const auto& d : run.environment.devices) {
    if (d.rank != rank) continue;
    for (std::size_t i = 0; i < t.gpus.size(); ++i) {
      if (lower(t.gpus[i].pci_bus_id) == lower(d.pci_bus_id)) return i;
    }
  }
  return std::nullopt;
}

std::string path_label(const topo::TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (a < t.nvlink_count.size() && b < t.nvlink_count[a].size() && t.nvlink_count[a][b] > 0)
    return "NV" + std::to_string(t.nvlink_count[a][b]);
  if (a < t.pcie_matrix.size() && b < t.pcie_matrix[a].size())
    return topo::to_string(t.pcie_matrix[a][b]);
  return "?";
}

bool uses_p2p(const doc::TransportCell& c) {
  return std::any_of(c.transports.begin(), c.transports.end(),
                     [](const std::string& t) { return t.rfind("P2P", 0) == 0; });
}

}  // namespace

std::string format_transport_vs_topology(const doc::NcclRun& run,
                                         const topo::TopologySnapshot& topology) {
  const doc::TransportMatrix& m = run.transport;
  if (m.nranks < 2) return "";
  if (m.nranks > doc::kMaxMatrixRanks)
    return "#\n# NCCL transport / topology path per pair: " + std::to_string(m.nranks) +
           " ranks, more than " + std::to_string(doc::kMaxMatrixRanks) + " for a matrix\n";
  std::string out = "#\n# NCCL transport / topology path per pair (row sends to column)";
  out += run.p2p_disabled ? " [NCCL_P2P_DISABLE=1]\n" : "\n";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "# %8s", "");
  out += buf;
  for (int d = 0; d < m.nranks; ++d) {
    std::snprintf(buf, sizeof(buf), " %-20s", ("rank" + std::to_string(d)).c_str());
    out += buf;
  }
  out += "\n";
  int fell_back = 0;
  for (int s = 0; s < m.nranks; ++s) {
    std::snprintf(buf, sizeof(buf), "# %8s", ("rank" + std::to_string(s)).c_str());
    out += buf;
    const auto ts = topology_index(run, s, topology);
    for (int d = 0; d < m.nranks; ++d) {
      const doc::TransportCell& cell = m.cell(s, d);
      const auto td = topology_index(run, d, topology);
      std::string label = "X";
      if (s != d) {
        const std::string path = ts && td ? path_label(topology, *ts, *td) : "?";
        label = (cell.transports.empty() ? std::string("-") : doc::cell_label(cell)) + " / " + path;
        if (!cell.transports.empty() && !uses_p2p(cell)) ++fell_back;
      }
      std::snprintf(buf, sizeof(buf), " %-20s", label.c_str());
      out += buf;
    }
    out += "\n";
  }
  if (fell_back > 0 && !run.p2p_disabled) {
    out += "#   " + std::to_string(fell_back) +
           " pair(s) did not use P2P: NCCL went through host memory or the network "
           "(P2P unavailable or limited by NCCL_P2P_LEVEL; see `p2pcheck doctor`)\n";
  }
  return out;
}

}  // namespace p2p::report
