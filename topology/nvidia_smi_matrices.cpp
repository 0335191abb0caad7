#include "topology/nvidia_smi_matrices.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"
#include "common/text_lines.hpp"

namespace p2p::topo::smi {

using topo::PathClass;

namespace {

// Column names of several words, joined so a whitespace split keeps them whole.
const std::pair<const char*, const char*> kMultiWordColumns[] = {{"CPU Affinity", "CPU_Affinity"},
                                                                 {"NUMA Affinity", "NUMA_Affinity"},
                                                                 {"GPU NUMA ID", "GPU_NUMA_ID"}};

}  // namespace

bool is_affinity_column(const std::string& t) {
  return t == "CPU_Affinity" || t == "NUMA_Affinity" || t == "GPU_NUMA_ID";
}

const char* const kP2pCodes[] = {"OK", "CNS", "GNS", "TNS", "NS", "DR", "U"};
bool is_p2p_code(const std::string& t) {
  return std::find(std::begin(kP2pCodes), std::end(kP2pCodes), t) != std::end(kP2pCodes);
}

namespace {

std::string join_multiword(std::string line) {
  for (const auto& [words, joined] : kMultiWordColumns) {
    for (auto at = line.find(words); at != std::string::npos; at = line.find(words, at))
      line.replace(at, std::string(words).size(), joined);
  }
  return line;
}

// Header lines: "GPU0 GPU1 ... [NIC0 ...] [CPU Affinity ...]".
std::optional<RawMatrix> header_at(const std::vector<std::string>& lines, std::size_t i) {
  auto tokens = split_ws(join_multiword(lines[i]));
  // A paste may glue the command onto the header it printed ("$ nvidia-smi topo -m  GPU0 GPU1"):
  // what comes before GPU0 is dropped when it is that command.
  const auto gpu0 = std::find(tokens.begin(), tokens.end(), "GPU0");
  const auto at = lines[i].find("GPU0");
  if (gpu0 != tokens.end() && gpu0 != tokens.begin() &&
      lines[i].substr(0, at).find("nvidia-smi") != std::string::npos &&
      lines[i].substr(0, at).find("topo") != std::string::npos)
    tokens.erase(tokens.begin(), gpu0);
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

}  // namespace

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

namespace {

bool legend_within(const std::vector<std::string>& lines, std::size_t from,
                   const std::string& marker) {
  for (std::size_t i = from; i < lines.size() && i < from + 14; ++i)
    if (lines[i].find(marker) != std::string::npos) return true;
  return false;
}

}  // namespace

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

namespace {

// "NV12" -> 12. A snapshot writes NV1 to NV999 (topology/snapshot_json.cpp reads no more), and no
// GPU has more than a few dozen links: NV0, NV1000 or NV99999999999 is a mangled cell, not a link
// count a saved snapshot could hold.
constexpr int kMaxNvlinkLabel = 999;

std::optional<int> nvlink_label_count(const std::string& cell) {
  if (cell.size() < 3 || cell.size() > 5 || cell.compare(0, 2, "NV") != 0) return std::nullopt;
  int n = 0;
  for (std::size_t i = 2; i < cell.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(cell[i]))) return std::nullopt;
    n = n * 10 + (cell[i] - '0');
  }
  if (n < 1 || n > kMaxNvlinkLabel) return std::nullopt;
  return n;
}

}  // namespace

std::optional<PathClass> cell_class(const std::string& cell) {
  if (cell == "SOC") return PathClass::kSys;  // what drivers before r384 printed for SYS
  if (cell.compare(0, 2, "NV") == 0)
    return nvlink_label_count(cell) ? std::optional<PathClass>(PathClass::kNvLink) : std::nullopt;
  return topo::path_class_from_string(cell);
}

int nvlink_links(const std::string& cell) { return nvlink_label_count(cell).value_or(0); }

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

namespace {

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

}  // namespace

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

std::optional<std::string> p2p_status_of(const RawMatrix& m, const std::vector<std::string>& lines,
                                         std::size_t floor, const std::string& source,
                                         topo::P2pStatus& out) {
  const std::size_t n = gpu_columns(m);
  if (n != m.devices.size()) return "column \"" + m.devices[n] + "\" is not a GPU";
  if (m.rows.size() < n)
    return "the header names " + std::to_string(n) + " GPUs but " + std::to_string(m.rows.size()) +
           " rows follow (cut short?)";
  out = topo::P2pStatus{};
  out.capability = capability_before(lines, m.header_line, floor, source);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [name, cells] = m.rows[i];
    if (name != "GPU" + std::to_string(i))
      return "row " + std::to_string(i) + " is \"" + name + "\"";
    if (cells.size() < n)
      return "row " + name + " has " + std::to_string(cells.size()) + " cells, " +
             std::to_string(n) + " expected";
    for (std::size_t j = 0; j < n; ++j) {
      const std::string& c = cells[j];
      if ((i == j && c != "X") || (i != j && !is_p2p_code(c)))
        return "row " + name + ", column GPU" + std::to_string(j) + ": \"" + c + "\" is not " +
               (i == j ? "X" : "one of OK, CNS, GNS, TNS, NS, DR, U");
    }
    out.cells.emplace_back(cells.begin(), cells.begin() + static_cast<long>(n));
  }
  return std::nullopt;
}

}  // namespace p2p::topo::smi
