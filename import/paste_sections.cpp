#include "import/paste_sections.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "common/text_lines.hpp"
#include "topology/nvidia_smi_matrices.hpp"

namespace p2p::import {

namespace {

const char* const kNvbandwidth = "nvbandwidth";
const char* const kNcclTests = "nccl-tests";
const char* const kSample = "p2pBandwidthLatencyTest";
const char* const kNvidiaSmi = "nvidia-smi";
const char* const kSimpleP2p = "simpleP2P";

struct Anchor {
  std::size_t line = 0;
  std::string tool;
  bool topo_m = false;  // an nvidia-smi topo -m matrix (each starts a section of its own)
};

std::vector<std::string> tokens_at(const std::vector<std::string>& lines, std::size_t i) {
  return i < lines.size() ? split_ws(lines[i]) : std::vector<std::string>{};
}

std::size_t next_text_line(const std::vector<std::string>& lines, std::size_t i) {
  while (i < lines.size() && trim(lines[i]).empty()) ++i;
  return i;
}

// A column header of numbers (0 1 2 ...) or of a label and numbers ("D\D 0 1", "GPU 0 1"), then
// a first row "0 ..." as wide as the matrix: a matrix under a title, not prose.
bool matrix_follows(const std::vector<std::string>& lines, std::size_t title) {
  const std::size_t h = next_text_line(lines, title + 1);
  const auto header = tokens_at(lines, h);
  const auto row = tokens_at(lines, h + 1);
  if (header.empty() || row.empty() || row[0] != "0") return false;
  const bool labelled = !parse_number(header[0]);
  const std::size_t columns = header.size() - (labelled ? 1 : 0);
  return columns > 0 && row.size() == columns + 1 && parse_number(header.back());
}

bool nccl_tests_header(const std::string& line) {
  std::string t = trim(line);
  if (!t.empty() && t[0] == '#') t = t.substr(1);
  const auto tokens = split_ws(t);
  if (tokens.size() < 5 || (tokens[0] != "size" && tokens[0] != "bytes") ||
      (tokens[1] != "count" && tokens[1] != "N"))
    return false;
  bool time = false, bandwidth = false;
  for (const auto& k : tokens) {
    time = time || k == "time" || k == "cputime";
    bandwidth = bandwidth || k == "algbw" || k == "busbw";
  }
  return time && bandwidth;
}

bool sample_title(const std::string& t) {
  return t == "P2P Connectivity Matrix" ||
         (t.find("P2P=") != std::string::npos && t.find("Matrix") != std::string::npos &&
          (t.find("Bandwidth") != std::string::npos || t.find("Latency") != std::string::npos));
}

bool nvbandwidth_title(const std::string& t) {
  const bool unit = (t.size() > 6 && t.compare(t.size() - 6, 6, "(GB/s)") == 0) ||
                    (t.size() > 4 && t.compare(t.size() - 4, 4, "(ns)") == 0);
  return unit && (t.find("(row)") != std::string::npos || t.find("(column)") != std::string::npos);
}

// "SUM device_to_device_memcpy_read_ce 715.53", "&&&& PERF host_to_device_memcpy_ce 55.44GB/s".
bool nvbandwidth_sum(const std::vector<std::string>& tokens) {
  std::size_t k = tokens.size() >= 4 && tokens[0] == "&&&&" ? 1 : 0;
  if (tokens.size() != k + 3 || (tokens[k] != "SUM" && tokens[k] != "PERF")) return false;
  // A sign too: a negative figure is a mangled SUM line, which the reader refuses by name.
  const std::string& v = tokens[k + 2];
  const std::size_t digit = v[0] == '-' && v.size() > 1 ? 1 : 0;
  return tokens[k + 1].find('_') != std::string::npos &&
         std::isdigit(static_cast<unsigned char>(v[digit])) != 0;
}

// "Waiving device_to_device_memcpy_read_ce.": nvbandwidth skipping a testcase (it waives the
// device-to-device ones when no GPU pair has peer access), itself evidence.
bool nvbandwidth_waiver(const std::string& t) {
  if (!starts_with(t, "Waiving ") || t.back() != '.') return false;
  const std::string key = t.substr(8, t.size() - 9);
  return key.find('_') != std::string::npos && key.find(' ') == std::string::npos;
}

// simpleP2P's peer-access lines, its rate line, or its waiver.
bool simple_p2p_line(const std::string& t) {
  // "> " may be gone: the normaliser reads it as a quote marker. A peer-access line cut before
  // its answer anchors nothing (a paste cut there is some other output's tail).
  const bool answered = t.size() > 5 && (t.compare(t.size() - 4, 4, ": No") == 0 ||
                                         t.compare(t.size() - 5, 5, ": Yes") == 0);
  return ((starts_with(t, "> Peer access from ") || starts_with(t, "Peer access from ")) &&
          answered) ||
         starts_with(t, "cudaMemcpyPeer / cudaMemcpy between GPU") ||
         (starts_with(t, "CUDA error at ") && t.find("simpleP2P") != std::string::npos) ||
         starts_with(t, "Peer to Peer access is not available amongst GPUs");
}

std::optional<std::string> table_tool(const std::vector<std::string>& lines, std::size_t i) {
  const std::string t = trim(lines[i]);
  if (nccl_tests_header(t)) return std::string(kNcclTests);
  if (nvbandwidth_waiver(t)) return std::string(kNvbandwidth);
  if (simple_p2p_line(t)) return std::string(kSimpleP2p);
  if (sample_title(t) && matrix_follows(lines, i)) return std::string(kSample);
  if (nvbandwidth_title(t) && matrix_follows(lines, i)) return std::string(kNvbandwidth);
  if (nvbandwidth_sum(split_ws(t))) return std::string(kNvbandwidth);
  return std::nullopt;
}

// A line that starts a tool's output: its banner, or a command line running it.
std::optional<std::string> banner_tool(const std::string& line) {
  const std::string t = trim(line);
  if (starts_with(t, "nvbandwidth Version:")) return std::string(kNvbandwidth);
  if (starts_with(t, "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]"))
    return std::string(kSample);
  if (starts_with(t, "[./simpleP2P]") || starts_with(t, "[simpleP2P]"))
    return std::string(kSimpleP2p);
  const std::string unmarked = trim(!t.empty() && t[0] == '#' ? t.substr(1) : t);
  if (starts_with(unmarked, "nThread ") || starts_with(unmarked, "nccl-tests version") ||
      starts_with(unmarked, "Collective test starting"))
    return std::string(kNcclTests);
  for (const auto& token : split_ws(t)) {
    const std::string program = token.substr(token.find_last_of('/') + 1);  // npos + 1 == 0
    if (program == "nvbandwidth") return std::string(kNvbandwidth);
    if (program == "p2pBandwidthLatencyTest") return std::string(kSample);
    if (program == "simpleP2P") return std::string(kSimpleP2p);
    const auto ends_with = [&](const std::string& tail) {
      return program.size() > tail.size() &&
             program.compare(program.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends_with("_perf") || ends_with("_perf_mpi")) return std::string(kNcclTests);
  }
  return std::nullopt;
}

std::vector<Anchor> anchors_of(const std::vector<std::string>& lines, const std::string& only) {
  std::vector<Anchor> out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (const auto tool = table_tool(lines, i)) out.push_back({i, *tool, false});
  for (const auto& m : topo::smi::find_matrices(lines)) {
    if (m.rows.empty()) continue;
    Anchor a{m.header_line, kNvidiaSmi, !topo::smi::is_p2p_matrix(m, lines)};
    auto at = out.begin();
    while (at != out.end() && at->line < a.line) ++at;
    out.insert(at, a);
  }
  if (!only.empty())
    out.erase(
        std::remove_if(out.begin(), out.end(), [&](const Anchor& a) { return a.tool != only; }),
        out.end());
  return out;
}

// The same tool's next output rather than more of this one: its banner between the two tables,
// or a second topo -m matrix. nccl-tests' reader keeps several runs apart itself.
bool next_output(const std::vector<std::string>& lines, const Anchor& previous, const Anchor& a) {
  if (a.tool == kNvidiaSmi) return a.topo_m && previous.topo_m;
  if (a.tool == kNcclTests) return false;
  for (std::size_t i = previous.line + 1; i < a.line; ++i)
    if (banner_tool(lines[i]) == a.tool) return true;
  return false;
}

// A line that can belong to the output below it: not blank, and no row of a table above it.
bool context_line(const std::string& line) {
  const auto tokens = split_ws(line);
  return !tokens.empty() && !parse_number(tokens[0]) && !indexed_name(tokens[0], "GPU") &&
         !indexed_name(tokens[0], "NIC");
}

// Where the section of anchor `a` starts, after line `after`: at its tool's banner (or, with
// none, at the table) and the lines right above it, such as the command line that ran it.
std::size_t section_start(const std::vector<std::string>& lines, std::size_t after,
                          const Anchor& a) {
  std::size_t start = a.line;
  for (std::size_t i = after + 1; i < a.line; ++i) {
    if (banner_tool(lines[i]) == a.tool) {
      start = i;
      break;
    }
  }
  for (int k = 0; k < 3 && start > after + 1 && context_line(lines[start - 1]); ++k) --start;
  return start;
}

}  // namespace

const std::vector<std::string>& paste_tools() {
  static const std::vector<std::string> tools = {kNvbandwidth, kNcclTests, kSample, kNvidiaSmi,
                                                 kSimpleP2p};
  return tools;
}

std::vector<PasteSection> find_sections(const std::vector<std::string>& lines,
                                        const std::string& only_tool) {
  const std::vector<Anchor> anchors = anchors_of(lines, only_tool);
  std::vector<PasteSection> out;
  for (std::size_t k = 0; k < anchors.size(); ++k) {
    const Anchor& a = anchors[k];
    if (!out.empty() && out.back().tool == a.tool && !next_output(lines, anchors[k - 1], a))
      continue;
    const std::size_t start = out.empty() ? 0 : section_start(lines, anchors[k - 1].line, a);
    if (!out.empty()) out.back().end = start;
    out.push_back({a.tool, start, lines.size()});
  }
  return out;
}

std::vector<std::string> tools_announced(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& line : lines) {
    const auto tool = banner_tool(line);
    if (tool && std::find(out.begin(), out.end(), *tool) == out.end()) out.push_back(*tool);
  }
  return out;
}

std::string tables_looked_for() {
  return "an nccl-tests table (a \"size count type ...\" header and its rows), an nvbandwidth "
         "matrix (its title, e.g. \"memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\", and "
         "rows) or SUM line, a p2pBandwidthLatencyTest matrix (its title, e.g. "
         "\"Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\", and rows), an "
         "nvidia-smi topo -m or -p2p matrix (a \"GPU0 ...\" header and its rows), simpleP2P's "
         "\"> Peer access from\" or cudaMemcpyPeer lines, nvbandwidth's \"Waiving ...\" line, or "
         "nvbandwidth -j / nccl-tests -J JSON";
}

}  // namespace p2p::import
