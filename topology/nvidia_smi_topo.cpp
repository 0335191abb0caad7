// nvidia-smi topo -m and topo -p2p captures read into a topology snapshot: the path matrix with
// its NIC columns and affinity, and the P2P status tables beside it.
#include "topology/nvidia_smi_topo.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "common/error.hpp"
#include "common/text_lines.hpp"
#include "topology/nvidia_smi_matrices.hpp"

namespace p2p::topo {

using namespace smi;  // NOLINT(google-build-using-namespace): the matrices of this one format
using topo::PathClass;

bool looks_like_nvidia_smi_topo(const std::string& text) {
  // A header is enough (a capture cut right after it is still one, and says so when parsed).
  const auto lines = clean_lines(text);
  for (const auto& m : find_matrices(lines))
    if (!is_p2p_matrix(m, lines) && (!m.rows.empty() || !m.affinity.empty())) return true;
  return false;
}

bool looks_like_nvidia_smi_p2p(const std::string& text) {
  const auto lines = clean_lines(text);
  for (const auto& m : find_matrices(lines))
    if (is_p2p_matrix(m, lines)) return true;
  return false;
}

namespace {

InputError not_topo_m(const std::string& source, const std::string& why) {
  return InputError(source + ": not an nvidia-smi topo -m capture: " + why);
}

// The capture's path matrix: the first matrix that is not one of P2P status codes.
const RawMatrix& path_matrix(const std::vector<RawMatrix>& matrices,
                             const std::vector<std::string>& lines, const std::string& source) {
  for (const auto& candidate : matrices) {
    if (!is_p2p_matrix(candidate, lines)) return candidate;
  }
  throw not_topo_m(
      source,
      "no matrix with a header row starting \"GPU0\" and rows of path classes (X, NV#, PIX, ...)");
}

// The number of GPUs the header names, once every one of them has its row.
std::size_t gpu_count(const RawMatrix& m, const std::string& source) {
  const std::size_t n = gpu_columns(m);
  if (n > topo::kMaxTopologyGpus)
    throw not_topo_m(source, std::to_string(n) + " GPUs: more than the " +
                                 std::to_string(topo::kMaxTopologyGpus) +
                                 " a topology p2pcheck reads holds");
  std::size_t gpu_rows = 0;
  while (gpu_rows < m.rows.size() && m.rows[gpu_rows].first == "GPU" + std::to_string(gpu_rows))
    ++gpu_rows;
  if (gpu_rows < n)
    throw not_topo_m(source, "the header names " + std::to_string(n) + " GPUs but " +
                                 std::to_string(gpu_rows) + " GPU rows follow (cut short?)");
  return n;
}

// GPU row i: its path class to every GPU (NV# as NVLinks, the PCIe class hidden under them),
// then its CPU and NUMA affinity from the cells after the devices', in header order.
void read_gpu_row(topo::TopologySnapshot& t, const RawMatrix& m, std::size_t i,
                  const std::string& source) {
  const std::size_t n = t.gpus.size();
  const std::size_t columns = m.devices.size();
  const auto& [name, cells] = m.rows[i];
  if (cells.size() < columns)
    throw not_topo_m(source, "row " + name + " has " + std::to_string(cells.size()) + " cells, " +
                                 std::to_string(columns) + " expected (cut or mangled)");
  for (std::size_t j = 0; j < n; ++j) {
    const auto c = cell_class(cells[j]);
    if (!c || (c == PathClass::kSelf) != (i == j))
      throw not_topo_m(source, "row " + name + ", column GPU" + std::to_string(j) + ": \"" +
                                   cells[j] + "\" is not " +
                                   (i == j ? "X" : "one of NV#, PIX, PXB, PHB, NODE, SYS"));
    if (c == PathClass::kNvLink) {
      t.nvlink_count[i][j] = nvlink_links(cells[j]);
      t.pcie_matrix[i][j] = PathClass::kSys;  // placeholder: the capture hides the PCIe class
      t.pcie_hidden_by_nvlink = true;
    } else {
      t.pcie_matrix[i][j] = *c;
    }
  }
  // Affinity values after the device cells, in header order; "N/A" is unknown.
  topo::Gpu& g = t.gpus[i];
  for (std::size_t k = 0; k < m.affinity.size() && columns + k < cells.size(); ++k) {
    const std::string& v = cells[columns + k];
    if (v == "N/A") continue;
    if (m.affinity[k] == "CPU_Affinity") g.cpuset = v;
    if (m.affinity[k] == "NUMA_Affinity" && parse_number(v)) g.numa_node = std::atoi(v.c_str());
  }
}

// NIC columns and rows: kept apart, with the path to each GPU from the GPU rows.
void read_nics(topo::TopologySnapshot& t, const RawMatrix& m, const std::vector<std::string>& lines,
               const std::string& source) {
  const std::size_t n = t.gpus.size();
  const auto legend = nic_legend(lines);
  for (std::size_t k = n; k < m.devices.size(); ++k) {
    topo::Nic nic;
    nic.name = m.devices[k];
    const auto it = legend.find(nic.name);
    nic.device = it != legend.end() ? it->second : (indexed_name(nic.name, "NIC") ? "" : nic.name);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& cell = m.rows[i].second[k];
      if (!cell_class(cell))
        throw not_topo_m(source, "row GPU" + std::to_string(i) + ", column " + nic.name + ": \"" +
                                     cell + "\" is not a path class");
      nic.gpu_paths.push_back(cell);
    }
    t.nics.push_back(std::move(nic));
  }
}

}  // namespace

topo::TopologySnapshot snapshot_from_nvidia_smi_topo(const std::string& text,
                                                     const std::string& source) {
  const auto lines = clean_lines(text);
  const auto matrices = find_matrices(lines);
  const RawMatrix& m = path_matrix(matrices, lines, source);
  const std::size_t n = gpu_count(m, source);

  topo::TopologySnapshot t;
  t.source = "nvidia-smi";
  t.gpus.resize(n);
  t.pcie_matrix.assign(n, std::vector<PathClass>(n, PathClass::kSelf));
  t.nvlink_count.assign(n, std::vector<int>(n, 0));
  for (std::size_t i = 0; i < n; ++i) read_gpu_row(t, m, i, source);
  read_nics(t, m, lines, source);
  t.environment.evidence.push_back(
      "nvidia-smi topo -m capture: no PCI bus ids, GPU names, links or PCIe tree, and no PCIe class under NV#");
  for (const auto& other : matrices) {
    if (is_p2p_matrix(other, lines)) {
      add_p2p_status(t, p2p_status_from_nvidia_smi(text, source), source);
      break;
    }
  }
  return t;
}

std::vector<topo::P2pStatus> p2p_status_from_nvidia_smi(const std::string& text,
                                                        const std::string& source) {
  const auto fail = [&](const std::string& why) {
    return InputError(source + ": not an nvidia-smi topo -p2p capture: " + why);
  };
  const auto lines = clean_lines(text);
  std::vector<topo::P2pStatus> out;
  std::size_t floor = 0;
  for (const auto& m : find_matrices(lines)) {
    if (!is_p2p_matrix(m, lines)) {
      floor = m.header_line + m.rows.size() + 1;
      continue;
    }
    topo::P2pStatus s;
    if (const auto why = p2p_status_of(m, lines, floor, source, s)) throw fail(*why);
    out.push_back(std::move(s));
    floor = m.header_line + m.rows.size() + 1;
  }
  if (out.empty())
    throw fail("no matrix of P2P status codes (OK, CNS, GNS, TNS, NS) under a \"GPU0 ...\" header");
  return out;
}

void add_p2p_status(topo::TopologySnapshot& t, const std::vector<topo::P2pStatus>& status,
                    const std::string& source) {
  for (const auto& s : status) {
    if (s.cells.size() != t.gpus.size())
      throw InputError(source + ": the topo -p2p capture has " + std::to_string(s.cells.size()) +
                       " GPUs, the topology " + std::to_string(t.gpus.size()));
    auto same =
        std::find_if(t.p2p_status.begin(), t.p2p_status.end(),
                     [&](const topo::P2pStatus& x) { return x.capability == s.capability; });
    if (same != t.p2p_status.end()) {
      *same = s;
    } else {
      t.p2p_status.push_back(s);
    }
  }
}

}  // namespace p2p::topo
