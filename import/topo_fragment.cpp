#include "import/topo_fragment.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"
#include "common/text_lines.hpp"
#include "topology/nvidia_smi_matrices.hpp"

namespace p2p::import {

namespace {

using topo::PathClass;
using topo::smi::RawMatrix;

InputError not_topo(const std::string& file, const std::string& why) {
  return InputError(file + ": not an nvidia-smi topo capture: " + why);
}

// The class of each GPU pair the rows tell, from either half of the matrix.
struct KnownPairs {
  std::vector<std::vector<std::optional<PathClass>>> cls;
  std::vector<std::vector<int>> links;
};

void know(KnownPairs& k, std::size_t i, std::size_t j, PathClass c, int links) {
  for (const auto& [a, b] : {std::pair{i, j}, std::pair{j, i}}) {
    if (k.cls[a][b]) continue;
    k.cls[a][b] = c;
    k.links[a][b] = links;
  }
}

// A cell that is no path class is a mangled capture, except the last token of a cut last row.
KnownPairs known_pairs(const RawMatrix& m, std::size_t n, const std::string& file) {
  KnownPairs k{std::vector<std::vector<std::optional<PathClass>>>(
                   n, std::vector<std::optional<PathClass>>(n)),
               std::vector<std::vector<int>>(n, std::vector<int>(n, 0))};
  for (std::size_t i = 0; i < n; ++i) k.cls[i][i] = PathClass::kSelf;  // what X says
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    const auto& [name, cells] = m.rows[r];
    const auto i = indexed_name(name, "GPU");
    if (!i || static_cast<std::size_t>(*i) >= n) continue;  // a NIC row
    for (std::size_t j = 0; j < n && j < cells.size(); ++j) {
      const auto c = topo::smi::cell_class(cells[j]);
      const bool self = static_cast<std::size_t>(*i) == j;
      if (c && (c == PathClass::kSelf) == self) {
        know(k, static_cast<std::size_t>(*i), j, *c, topo::smi::nvlink_links(cells[j]));
      } else if (r + 1 < m.rows.size() || j + 1 < cells.size()) {
        throw not_topo(file, "row " + name + ", column GPU" + std::to_string(j) + ": \"" +
                                 cells[j] + "\" is not " +
                                 (self ? "X" : "one of NV#, PIX, PXB, PHB, NODE, SYS"));
      }
    }
  }
  return k;
}

// GPU0 .. GPU(m-1) with every pair among them known.
std::size_t complete_prefix(const KnownPairs& k) {
  std::size_t m = 0;
  for (; m < k.cls.size(); ++m) {
    for (std::size_t j = 0; j <= m; ++j)
      if (!k.cls[m][j] || !k.cls[j][m]) return m;
  }
  return m;
}

// The cells of GPU i's row; nullptr where the capture is cut before it.
const std::vector<std::string>* gpu_row(const RawMatrix& m, std::size_t i) {
  for (const auto& [name, cells] : m.rows)
    if (name == "GPU" + std::to_string(i)) return &cells;
  return nullptr;
}

// A cell of the device columns, mangled ones ("NODENODE", a lost tab) included: letters only,
// NV<n> or X. Affinity values have digits or a slash.
bool device_cell(const std::string& t) {
  if (t == "X" || topo::smi::nvlink_links(t) > 0) return true;
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
  });
}

std::size_t device_cells(const std::vector<std::string>& cells) {
  std::size_t d = 0;
  while (d < cells.size() && device_cell(cells[d])) ++d;
  return d;
}

// The affinity values after the device cells, in the header's order; what is not a CPU list or
// a NUMA node (a cut row, "0N/A" where a tab was lost) stays unknown.
void read_affinity(const RawMatrix& m, const std::vector<std::string>& cells, topo::Gpu& g) {
  const std::size_t d = device_cells(cells);
  for (std::size_t a = 0; a < m.affinity.size() && d + a < cells.size(); ++a) {
    const std::string& v = cells[d + a];
    const bool numbers = v.find_first_not_of("0123456789") == std::string::npos;
    if (m.affinity[a] == "CPU_Affinity" && v.find_first_not_of("0123456789,-") == std::string::npos)
      g.cpuset = v;
    if (m.affinity[a] == "NUMA_Affinity" && numbers && v.size() < 6) g.numa_node = std::stoi(v);
  }
}

// NIC columns only where every kept row lines up with the header (a lost tab shifts them).
void read_nics(const RawMatrix& m, std::size_t gpus, const std::vector<std::string>& lines,
               topo::TopologySnapshot& t, std::vector<std::string>& notes) {
  const std::size_t n = topo::smi::gpu_columns(m), columns = m.devices.size();
  bool aligned = true;
  for (std::size_t k = n; k < columns; ++k) {
    const std::string& name = m.devices[k];
    aligned = aligned && (name.find("NIC") == std::string::npos || indexed_name(name, "NIC"));
  }
  for (std::size_t i = 0; i < gpus && aligned; ++i) {
    const auto* cells = gpu_row(m, i);
    aligned = cells && device_cells(*cells) == columns;
    for (std::size_t k = n; k < columns && aligned; ++k)
      aligned = topo::smi::cell_class((*cells)[k]).has_value();
  }
  if (!aligned) {
    notes.push_back(
        "NIC columns left out: they do not line up with the header (cut, or a tab "
        "lost in the paste)");
    return;
  }
  const auto legend = topo::smi::nic_legend(lines);
  for (std::size_t k = n; k < columns; ++k) {
    topo::Nic nic;
    nic.name = m.devices[k];
    const auto it = legend.find(nic.name);
    nic.device = it != legend.end() ? it->second : (indexed_name(nic.name, "NIC") ? "" : nic.name);
    for (std::size_t i = 0; i < gpus; ++i) nic.gpu_paths.push_back((*gpu_row(m, i))[k]);
    t.nics.push_back(std::move(nic));
  }
}

topo::TopologySnapshot matrix_snapshot(const RawMatrix& m, const std::vector<std::string>& lines,
                                       const std::string& file, std::vector<std::string>& notes) {
  const std::size_t n = topo::smi::gpu_columns(m);
  const KnownPairs k = known_pairs(m, n, file);
  const std::size_t kept = complete_prefix(k);
  if (kept == 0) throw not_topo(file, "no complete GPU row under the \"GPU0 ...\" header");
  if (kept < n)
    notes.push_back("GPU" + std::to_string(kept) +
                    (kept + 1 < n ? ".." + ("GPU" + std::to_string(n - 1)) : std::string()) +
                    " left out: the matrix is cut before their pairs are known (" +
                    std::to_string(kept) + " of " + std::to_string(n) + " GPUs kept)");
  topo::TopologySnapshot t;
  t.source = "nvidia-smi";
  t.gpus.resize(kept);
  t.pcie_matrix.assign(kept, std::vector<PathClass>(kept, PathClass::kSelf));
  t.nvlink_count.assign(kept, std::vector<int>(kept, 0));
  for (std::size_t i = 0; i < kept; ++i) {
    for (std::size_t j = 0; j < kept; ++j) {
      const PathClass c = *k.cls[i][j];
      t.nvlink_count[i][j] = k.links[i][j];
      // NV# hides the PCIe class: SYS stands in, as the reader of whole captures writes it.
      t.pcie_matrix[i][j] = c == PathClass::kNvLink ? PathClass::kSys : c;
      t.pcie_hidden_by_nvlink = t.pcie_hidden_by_nvlink || c == PathClass::kNvLink;
    }
    if (const auto* cells = gpu_row(m, i)) read_affinity(m, *cells, t.gpus[i]);
  }
  if (m.devices.size() > n) read_nics(m, kept, lines, t, notes);
  t.environment.evidence.push_back(
      "nvidia-smi topo -m capture: no PCI bus ids, GPU names, links or PCIe tree, and no PCIe "
      "class under NV#");
  return t;
}

// Which pairs the driver gives peer access: read or write status OK (false on the diagonal).
std::vector<std::vector<bool>> access_of(const std::vector<topo::P2pStatus>& status) {
  for (const auto& s : status) {
    if (s.capability != "read" && s.capability != "write" && s.capability != "read+write") continue;
    std::vector<std::vector<bool>> out;
    for (std::size_t i = 0; i < s.cells.size(); ++i) {
      out.emplace_back();
      for (std::size_t j = 0; j < s.cells.size(); ++j)
        out.back().push_back(i != j && s.cells[i][j] == "OK");
    }
    return out;
  }
  return {};
}

}  // namespace

ImportedFigures topo_fragment_figures(const std::string& text, const std::string& file) {
  ImportedFigures f;
  f.file.file = file;
  f.file.tool = "nvidia-smi";
  f.file.format = "text";
  const auto lines = clean_lines(text);
  std::vector<topo::P2pStatus> status;
  std::size_t floor = 0;
  for (const auto& m : topo::smi::find_matrices(lines)) {
    const std::size_t end = m.header_line + m.rows.size() + 1;
    if (topo::smi::is_p2p_matrix(m, lines)) {
      topo::P2pStatus s;
      if (const auto why = topo::smi::p2p_status_of(m, lines, floor, file, s)) {
        f.file.notes.push_back("a topo -p2p matrix left out: " + *why);
      } else {
        f.file.mappings.push_back("topo -p2p (" + s.capability + ") -> p2p_access");
        status.push_back(std::move(s));
      }
    } else if (!f.topology && !m.rows.empty()) {
      f.topology = matrix_snapshot(m, lines, file, f.file.notes);
      f.file.mappings.push_back("topo -m -> topology of " +
                                std::to_string(f.topology->gpus.size()) + " GPUs");
    }
    floor = end;
  }
  if (!f.topology && status.empty())
    throw not_topo(file, "no complete GPU row under a \"GPU0 ...\" header");
  const std::size_t gpus = f.topology ? f.topology->gpus.size() : status.front().cells.size();
  for (const auto& s : status) {
    if (s.cells.size() != gpus) {
      f.file.notes.push_back("a topo -p2p matrix of " + std::to_string(s.cells.size()) +
                             " GPUs left out: the topology has " + std::to_string(gpus));
    } else if (f.topology) {
      f.topology->p2p_status.push_back(s);
    }
  }
  status.erase(std::remove_if(status.begin(), status.end(),
                              [&](const topo::P2pStatus& s) { return s.cells.size() != gpus; }),
               status.end());
  f.p2p_access = access_of(status);
  for (std::size_t i = 0; i < gpus; ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = static_cast<int>(i);
    if (f.topology) {
      g.numa_node = f.topology->gpus[i].numa_node;
      g.cpuset = f.topology->gpus[i].cpuset;
    }
    f.gpus.push_back(g);
  }
  f.file.notes.push_back(
      "GPUs as nvidia-smi numbers them (PCI bus order): CUDA's ordinals only under "
      "CUDA_DEVICE_ORDER=PCI_BUS_ID");
  return f;
}

}  // namespace p2p::import
