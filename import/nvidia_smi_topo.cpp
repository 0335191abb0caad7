#include "import/nvidia_smi_topo.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "common/error.hpp"
#include "import/text_lines.hpp"

namespace p2p::import {

namespace {

using topo::PathClass;

// Column names of several words, joined so a whitespace split keeps them whole.
const std::pair<const char*, const char*> kMultiWordColumns[] = {{"CPU Affinity", "CPU_Affinity"},
                                                                 {"NUMA Affinity", "NUMA_Affinity"},
                                                                 {"GPU NUMA ID", "GPU_NUMA_ID"}};

bool is_affinity_column(const std::string& t) {
  return t == "CPU_Affinity" || t == "NUMA_Affinity" || t == "GPU_NUMA_ID";
}

const char* const kP2pCodes[] = {"OK", "CNS", "GNS", "TNS", "NS", "DR", "U"};
bool is_p2p_code(const std::string& t) {
  return std::find(std::begin(kP2pCodes), std::end(kP2pCodes), t) != std::end(kP2pCodes);
}

// One matrix as printed: the column names, then one row per device.
struct RawMatrix {
  std::size_t header_line = 0;
  std::vector<std::string> devices;   // GPU0.., NIC0.. or old NIC device names, in column order
  std::vector<std::string> affinity;  // affinity columns present, in order
  std::vector<std::pair<std::string, std::vector<std::string>>>
      rows;  // name, the rest of its tokens
};

std::string join_multiword(std::string line) {
  for (const auto& [words, joined] : kMultiWordColumns) {
    for (auto at = line.find(words); at != std::string::npos; at = line.find(words, at))
      line.replace(at, std::string(words).size(), joined);
  }
  return line;
}

// Header lines: "GPU0 GPU1 ... [NIC0 ...] [CPU Affinity ...]".
std::optional<RawMatrix> header_at(const std::vector<std::string>& lines, std::size_t i) {
  const auto tokens = split_ws(join_multiword(lines[i]));
  if (tokens.empty() || tokens[0] != "GPU0") return std::nullopt;
  RawMatrix m;
  m.header_line = i;
  for (const auto& t : tokens) {
    if (is_affinity_column(t)) {
      m.affinity.push_back(t);
    } else if (!m.affinity.empty()) {
      return std::nullopt;  // a device after the affinity columns: not a header
    } else if (t.find_first_of("=:()") != std::string::npos || is_p2p_code(t) || t == "X" ||
               (t != "GPU0" && topo::path_class_from_string(t))) {
      return std::nullopt;  // a cell, not a device name: this is a row or prose, not a header
    } else {
      m.devices.push_back(t);
    }
  }
  return m;
}

// The rows that follow a header: lines whose first token is one of its devices.
void read_rows(const std::vector<std::string>& lines, RawMatrix& m) {
  for (std::size_t i = m.header_line + 1; i < lines.size(); ++i) {
    const auto tokens = split_ws(lines[i]);
    if (tokens.empty()) break;
    if (std::find(m.devices.begin(), m.devices.end(), tokens[0]) == m.devices.end()) break;
    m.rows.emplace_back(tokens[0], std::vector<std::string>(tokens.begin() + 1, tokens.end()));
  }
}

std::vector<RawMatrix> find_matrices(const std::vector<std::string>& lines) {
  std::vector<RawMatrix> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto m = header_at(lines, i);
    if (!m) continue;
    read_rows(lines, *m);
    i += m->rows.size();
    out.push_back(std::move(*m));
  }
  return out;
}

bool legend_within(const std::vector<std::string>& lines, std::size_t from,
                   const std::string& marker) {
  for (std::size_t i = from; i < lines.size() && i < from + 14; ++i)
    if (lines[i].find(marker) != std::string::npos) return true;
  return false;
}

// A P2P status matrix: its off-diagonal cells are status codes (or, with one GPU, no affinity
// columns and the -p2p legend right after it).
bool is_p2p_matrix(const RawMatrix& m, const std::vector<std::string>& lines) {
  if (!m.affinity.empty()) return false;
  for (const auto& [name, cells] : m.rows)
    for (const auto& c : cells)
      if (is_p2p_code(c)) return true;
  const std::size_t after = m.header_line + 1 + m.rows.size();
  return legend_within(lines, after, "= Status Ok");
}

std::optional<PathClass> cell_class(const std::string& cell) {
  if (cell == "SOC") return PathClass::kSys;  // what drivers before r384 printed for SYS
  return topo::path_class_from_string(cell);
}

int nvlink_links(const std::string& cell) {
  return cell.size() > 2 && cell.compare(0, 2, "NV") == 0 ? std::atoi(cell.c_str() + 2) : 0;
}

std::size_t gpu_columns(const RawMatrix& m) {
  std::size_t n = 0;
  while (n < m.devices.size() && m.devices[n] == "GPU" + std::to_string(n)) ++n;
  return n;
}

// "  NIC0: mlx5_0" lines of the NIC legend.
std::map<std::string, std::string> nic_legend(const std::vector<std::string>& lines) {
  std::map<std::string, std::string> out;
  for (const auto& line : lines) {
    const auto tokens = split_ws(line);
    if (tokens.size() == 2 && tokens[0].size() > 1 && tokens[0].back() == ':' &&
        indexed_name(tokens[0].substr(0, tokens[0].size() - 1), "NIC"))
      out[tokens[0].substr(0, tokens[0].size() - 1)] = tokens[1];
  }
  return out;
}

// A word as pasted in prose or markdown, without the quotes and brackets around it: "(topo -p2p
// rw)" has "rw)".
std::string strip_quoting(const std::string& word) {
  static const std::string kQuoting = "`'\"()[]:,.";
  const auto first = word.find_first_not_of(kQuoting);
  if (first == std::string::npos) return "";
  return word.substr(first, word.find_last_not_of(kQuoting) - first + 1);
}

// nvidia-smi's `-p2p` letters: r (read), w (write), n (nvlink), a (atomics), p (prop).
const char* capability_name(char letter) {
  switch (letter) {
    case 'r': return "read";
    case 'w': return "write";
    case 'n': return "nvlink";
    case 'a': return "atomics";
    case 'p': return "prop";
    default: return nullptr;
  }
}

// The capability a `-p2p <letters>` argument names: one letter, its name; several ("rw"), their
// names joined by '+' in r, w, n, a, p order ("read+write"): nvidia-smi prints one matrix for
// them and does not say which capability it answered, so none of them is claimed alone. nullopt
// for a word that is no letter argument ("-p2p status"); InputError for a single letter
// nvidia-smi has not.
std::optional<std::string> capability_of_letters(const std::string& argument,
                                                 const std::string& source) {
  // The letters end where markup or punctuation begins: "rw)</summary>" is "rw".
  const std::string quoted = strip_quoting(argument);
  std::size_t end = 0;
  while (end < quoted.size() && std::isalnum(static_cast<unsigned char>(quoted[end]))) ++end;
  const std::string word = quoted.substr(0, end);
  if (word.empty() || word.size() > 5) return std::nullopt;
  for (char c : word)
    if (!std::islower(static_cast<unsigned char>(c))) return std::nullopt;
  const auto bad = word.find_first_not_of("rwnap");
  if (bad != std::string::npos && word.size() > 1) return std::nullopt;  // a word, not letters
  if (bad != std::string::npos)
    throw InputError(source + ": not an nvidia-smi topo -p2p capture: \"-p2p " + word +
                     "\": nvidia-smi's capability letters are r, w, n, a and p (read, write, "
                     "nvlink, atomics, prop)");
  std::string joined;
  for (const char letter : std::string("rwnap")) {
    if (word.find(letter) == std::string::npos) continue;
    joined += (joined.empty() ? "" : "+") + std::string(capability_name(letter));
  }
  return joined;
}

// The capability named on a line shortly before the matrix (`nvidia-smi topo -p2p w`,
// `--p2pstatus=rw`); "read" where none says (`r` is what people run first).
std::string capability_before(const std::vector<std::string>& lines, std::size_t header,
                              std::size_t floor, const std::string& source) {
  for (std::size_t i = header; i-- > floor && i + 6 > header;) {
    const auto tokens = split_ws(lines[i]);
    for (std::size_t k = 0; k < tokens.size(); ++k) {
      const std::string t = strip_quoting(tokens[k]);
      std::string argument;
      if (starts_with(t, "--p2pstatus=")) {
        argument = t.substr(12);
      } else if ((t == "-p2p" || t == "--p2pstatus") && k + 1 < tokens.size()) {
        argument = tokens[k + 1];
      } else {
        continue;
      }
      if (const auto capability = capability_of_letters(argument, source)) return *capability;
    }
  }
  return "read";
}

}  // namespace

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

topo::TopologySnapshot snapshot_from_nvidia_smi_topo(const std::string& text,
                                                     const std::string& source) {
  const auto fail = [&](const std::string& why) {
    return InputError(source + ": not an nvidia-smi topo -m capture: " + why);
  };
  const auto lines = clean_lines(text);
  const auto matrices = find_matrices(lines);
  const RawMatrix* m = nullptr;
  for (const auto& candidate : matrices) {
    if (!is_p2p_matrix(candidate, lines)) {
      m = &candidate;
      break;
    }
  }
  if (!m)
    throw fail(
        "no matrix with a header row starting \"GPU0\" and rows of path classes (X, NV#, PIX, ...)");
  const std::size_t n = gpu_columns(*m);
  std::size_t gpu_rows = 0;
  while (gpu_rows < m->rows.size() && m->rows[gpu_rows].first == "GPU" + std::to_string(gpu_rows))
    ++gpu_rows;
  if (gpu_rows < n)
    throw fail("the header names " + std::to_string(n) + " GPUs but " + std::to_string(gpu_rows) +
               " GPU rows follow (cut short?)");

  topo::TopologySnapshot t;
  t.source = "nvidia-smi";
  t.gpus.resize(n);
  t.pcie_matrix.assign(n, std::vector<PathClass>(n, PathClass::kSelf));
  t.nvlink_count.assign(n, std::vector<int>(n, 0));
  const std::size_t columns = m->devices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [name, cells] = m->rows[i];
    if (cells.size() < columns)
      throw fail("row " + name + " has " + std::to_string(cells.size()) + " cells, " +
                 std::to_string(columns) + " expected (cut or mangled)");
    for (std::size_t j = 0; j < n; ++j) {
      const auto c = cell_class(cells[j]);
      if (!c || (c == PathClass::kSelf) != (i == j))
        throw fail("row " + name + ", column GPU" + std::to_string(j) + ": \"" + cells[j] +
                   "\" is not " + (i == j ? "X" : "one of NV#, PIX, PXB, PHB, NODE, SYS"));
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
    for (std::size_t k = 0; k < m->affinity.size() && columns + k < cells.size(); ++k) {
      const std::string& v = cells[columns + k];
      if (v == "N/A") continue;
      if (m->affinity[k] == "CPU_Affinity") g.cpuset = v;
      if (m->affinity[k] == "NUMA_Affinity" && parse_number(v)) g.numa_node = std::atoi(v.c_str());
    }
  }
  // NIC columns and rows: kept apart, with the path to each GPU from the GPU rows.
  const auto legend = nic_legend(lines);
  for (std::size_t k = n; k < columns; ++k) {
    topo::Nic nic;
    nic.name = m->devices[k];
    const auto it = legend.find(nic.name);
    nic.device = it != legend.end() ? it->second : (indexed_name(nic.name, "NIC") ? "" : nic.name);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& cell = m->rows[i].second[k];
      if (!cell_class(cell))
        throw fail("row GPU" + std::to_string(i) + ", column " + nic.name + ": \"" + cell +
                   "\" is not a path class");
      nic.gpu_paths.push_back(cell);
    }
    t.nics.push_back(std::move(nic));
  }
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
    const std::size_t n = gpu_columns(m);
    if (n != m.devices.size()) throw fail("column \"" + m.devices[n] + "\" is not a GPU");
    if (m.rows.size() < n)
      throw fail("the header names " + std::to_string(n) + " GPUs but " +
                 std::to_string(m.rows.size()) + " rows follow (cut short?)");
    topo::P2pStatus s;
    s.capability = capability_before(lines, m.header_line, floor, source);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& [name, cells] = m.rows[i];
      if (name != "GPU" + std::to_string(i))
        throw fail("row " + std::to_string(i) + " is \"" + name + "\"");
      if (cells.size() < n)
        throw fail("row " + name + " has " + std::to_string(cells.size()) + " cells, " +
                   std::to_string(n) + " expected");
      for (std::size_t j = 0; j < n; ++j) {
        const std::string& c = cells[j];
        if ((i == j && c != "X") || (i != j && !is_p2p_code(c)))
          throw fail("row " + name + ", column GPU" + std::to_string(j) + ": \"" + c +
                     "\" is not " + (i == j ? "X" : "one of OK, CNS, GNS, TNS, NS, DR, U"));
      }
      s.cells.emplace_back(cells.begin(), cells.begin() + static_cast<long>(n));
    }
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

}  // namespace p2p::import
