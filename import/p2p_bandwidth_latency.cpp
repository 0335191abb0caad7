// The output of CUDA's p2pBandwidthLatencyTest sample: its connectivity, bandwidth and latency
// matrices read as printed, then mapped to p2pcheck's figures and case names.
#include "import/p2p_bandwidth_latency.hpp"

#include <cstdint>
#include <set>

#include "common/error.hpp"
#include "common/text_lines.hpp"
#include "document/case_names.hpp"
#include "import/limits.hpp"

namespace p2p::import {

namespace {

InputError not_sample(const std::string& source, const std::string& why) {
  return InputError(source + ": not p2pBandwidthLatencyTest output: " + why);
}

bool is_title(const std::string& t) {
  return (t.find("Bandwidth") != std::string::npos || t.find("Latency") != std::string::npos) &&
         t.find("Matrix") != std::string::npos && t.find("P2P=") != std::string::npos;
}

// A matrix: a header ("D\D 0 1 ..." or "GPU 0 1" / "CPU 0 1") and one row per GPU. `n` is the GPU
// count the Device lines gave, or 0 to take it from the header. Rows before a cut are kept.
std::size_t read_block(const std::vector<std::string>& lines, std::size_t i, std::size_t& n,
                       SampleMatrix& m, P2pBandwidthLatencyOutput& out, const std::string& source) {
  const auto header = split_ws(lines[i]);
  if (n == 0) n = header.size() - 1;
  if (header.size() != n + 1)
    throw not_sample(source, "\"" + m.title + "\": a header of " +
                                 std::to_string(header.size() - 1) + " GPUs, " + std::to_string(n) +
                                 " expected");
  ++i;
  for (std::size_t r = 0; r < n; ++r, ++i) {
    const auto tokens = i < lines.size() ? split_ws(lines[i]) : std::vector<std::string>{};
    if (tokens.size() < n + 1 && (i >= lines.size() || no_row_follows(lines, i))) {
      out.notes.push_back("\"" + m.title + "\"" + (m.timer.empty() ? "" : " [" + m.timer + "]") +
                          ": cut after " + std::to_string(r) + " of " + std::to_string(n) +
                          " rows: the rest left out");
      return tokens.empty() ? i : i + 1;
    }
    if (tokens.size() != n + 1 || tokens[0] != std::to_string(r))
      throw not_sample(source,
                       "\"" + m.title + "\": row " + std::to_string(r) + " is cut or mangled");
    std::vector<double> row;
    for (std::size_t k = 1; k < tokens.size(); ++k) {
      const auto v = parse_number(tokens[k]);
      if (!v || *v < 0)
        throw not_sample(source, "line " + std::to_string(i + 1) + ", column " +
                                     std::to_string(k + 1) + " of \"" + m.title +
                                     "\": " + figure_cell_problem(tokens[k]));
      row.push_back(*v);
    }
    m.cells.push_back(std::move(row));
  }
  return i;
}

void read_connectivity(const std::vector<std::string>& lines, std::size_t& i,
                       P2pBandwidthLatencyOutput& out, const std::string& source) {
  SampleMatrix m;
  m.title = "P2P Connectivity Matrix";
  i = read_block(lines, i + 1, out.gpus, m, out, source);
  for (const auto& row : m.cells) {
    std::vector<int> r;
    for (double v : row) {
      // 1: peer access, 0: none. Anything else is a mangled cell (and casting 1e300 to int
      // would be undefined behaviour).
      if (v != 0 && v != 1)
        throw not_sample(source, "P2P Connectivity Matrix: a cell that is neither 0 nor 1");
      r.push_back(v == 1 ? 1 : 0);
    }
    out.connectivity.push_back(std::move(r));
  }
}

// A bandwidth title has one matrix; a latency title two, the GPU-timed then the CPU-timed.
void read_titled(const std::vector<std::string>& lines, std::size_t& i,
                 P2pBandwidthLatencyOutput& out, const std::string& source) {
  const std::string title = trim(lines[i]);
  const bool latency = title.find("Latency") != std::string::npos;
  std::size_t at = i + 1;
  for (int block = 0; block < (latency ? 2 : 1); ++block) {
    while (at < lines.size() && trim(lines[at]).empty()) ++at;
    const auto header = at < lines.size() ? split_ws(lines[at]) : std::vector<std::string>{};
    if (header.size() < 2 || parse_number(header[0])) {
      out.notes.push_back("\"" + title + "\": cut off before its " +
                          (block == 0 ? "matrix" : "CPU-timed matrix"));
      break;
    }
    SampleMatrix m;
    m.title = title;
    if (latency) m.timer = header[0];  // "GPU" then "CPU"
    at = read_block(lines, at, out.gpus, m, out, source);
    if (!m.cells.empty()) out.matrices.push_back(std::move(m));
  }
  i = at;
}

}  // namespace

bool looks_like_p2p_bandwidth_latency(const std::string& text) {
  return text.find("P2P Connectivity Matrix") != std::string::npos ||
         text.find("Unidirectional P2P=Disabled Bandwidth") != std::string::npos;
}

P2pBandwidthLatencyOutput parse_p2p_bandwidth_latency(const std::string& text,
                                                      const std::string& source) {
  P2pBandwidthLatencyOutput out;
  const auto lines = clean_lines(text);
  for (std::size_t i = 0; i < lines.size();) {
    const std::string t = trim(lines[i]);
    if (starts_with(t, "Device: ")) {
      // "Device: 0, NVIDIA H200, pciBusID: 6, pciDeviceID: 0, pciDomainID:0"
      const auto first = t.find(", ");
      const auto second = t.find(", pciBusID");
      if (first != std::string::npos && second != std::string::npos && second > first) {
        out.devices.push_back(t.substr(first + 2, second - first - 2));
        out.gpus = out.devices.size();
      }
    } else if (t == "P2P Connectivity Matrix" && i + 1 < lines.size()) {
      read_connectivity(lines, i, out, source);
      continue;
    } else if (is_title(t)) {
      read_titled(lines, i, out, source);
      continue;
    }
    ++i;
  }
  if (out.matrices.empty()) throw not_sample(source, "no bandwidth or latency matrix");
  return out;
}

namespace {

// One GPU record per GPU the output counts, named where its Device lines were kept.
void add_gpus(const P2pBandwidthLatencyOutput& out, ImportedFigures& f) {
  for (std::size_t i = 0; i < out.gpus; ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = static_cast<int>(i);
    if (i < out.devices.size()) g.name = out.devices[i];
    f.gpus.push_back(g);
  }
  if (out.devices.empty())
    f.file.notes.push_back("assumed: " + std::to_string(out.gpus) +
                           " GPUs, names unknown: the Device lines were left out");
}

// The connectivity matrix is cudaDeviceCanAccessPeer per ordered pair: what bench records.
void add_p2p_access(const P2pBandwidthLatencyOutput& out, ImportedFigures& f) {
  if (out.connectivity.size() != out.gpus) return;
  for (std::size_t a = 0; a < out.connectivity.size(); ++a) {
    f.p2p_access.emplace_back();
    for (std::size_t b = 0; b < out.connectivity[a].size() && b < out.gpus; ++b)
      f.p2p_access.back().push_back(a != b && out.connectivity[a][b] == 1);
  }
}

// Where two GPUs have no peer access, the sample copies through the host even in its
// P2P=Enabled matrices (its connectivity matrix says which pairs): those are no P2P figures.
bool peer_access(const P2pBandwidthLatencyOutput& out, std::size_t a, std::size_t b) {
  const auto& c = out.connectivity;
  if (c.empty()) return true;  // not printed: the titles are all there is to go by
  return a < c.size() && b < c[a].size() && b < c.size() && a < c[b].size() && c[a][b] == 1 &&
         c[b][a] == 1;
}

// What a matrix's title says it measured, and the p2pcheck case it maps to.
struct MatrixKind {
  bool enabled = false, reads = false, bidir = false, latency = false;
  std::string case_name;
};

MatrixKind kind_of(const SampleMatrix& m) {
  MatrixKind k;
  k.enabled = m.title.find("P2P=Enabled") != std::string::npos;
  k.reads = m.title.find("P2P Reads") != std::string::npos;
  k.bidir = m.title.find("Bidirectional") != std::string::npos;
  k.latency = m.title.find("Latency") != std::string::npos;
  if (k.latency) {
    k.case_name = std::string("memcpy_latency_") +
                  (k.enabled ? (k.reads ? "p2p_read" : "p2p_write") : "p2p_off") +
                  (m.timer == "CPU" ? "_cpu_timer" : "");
  } else if (k.bidir) {
    k.case_name = k.enabled ? doc::cases::kCeBidir : "staged_bidir";
  } else {
    k.case_name = k.enabled ? (k.reads ? doc::cases::kCeUnidirRead : doc::cases::kCeUnidirWrite)
                            : doc::cases::kStaged;
  }
  return k;
}

// Cell (r, c) of a latency matrix (us in the output, ns in the document).
doc::LatencyResult latency_figure(const MatrixKind& k, std::size_t r, std::size_t c, double v,
                                  bool peer, const doc::FigureSource& source) {
  doc::LatencyResult l;
  l.case_name = k.case_name;
  l.src = gpu_name(static_cast<int>(r));
  l.dst = gpu_name(static_cast<int>(c));
  l.median_ns = v * 1000.0;
  l.samples_ns = {v * 1000.0};
  l.p2p = peer;
  l.source = source;
  return l;
}

// Cell (r, c) of a bandwidth matrix: the diagonal is the device's local copy.
doc::BandwidthResult bandwidth_figure(const MatrixKind& k, std::size_t r, std::size_t c, double v,
                                      bool peer, const doc::FigureSource& source,
                                      std::uint64_t copy_bytes) {
  // Reads: the row GPU's stream copies from the column GPU into its own memory.
  const int from = static_cast<int>(k.reads ? c : r), to = static_cast<int>(k.reads ? r : c);
  doc::BandwidthResult b;
  b.case_name = r == c ? doc::cases::kDeviceLocalCe : k.case_name;
  b.src = gpu_name(from);
  b.dst = gpu_name(to);
  b.part = k.bidir ? "sum" : "";
  b.issued_by = r == c || k.bidir ? "" : gpu_name(static_cast<int>(r));
  b.method = peer || r == c ? "copy_engine" : "staged";
  b.bytes = copy_bytes;
  b.median_gbps = v;
  b.samples_gbps = {v};
  if (r != c) b.p2p = peer;
  b.source = source;
  return b;
}

// The figures of one matrix, in row then column order; true when a P2P=Enabled figure of a
// pair without peer access was among them (a copy staged through the host).
bool add_matrix_figures(const P2pBandwidthLatencyOutput& out, const SampleMatrix& m,
                        const MatrixKind& k, bool take_diagonal, std::uint64_t copy_bytes,
                        ImportedFigures& f) {
  bool fell_back = false;
  for (std::size_t r = 0; r < m.cells.size(); ++r) {
    for (std::size_t c = 0; c < m.cells[r].size(); ++c) {
      const double v = m.cells[r][c];
      const doc::FigureSource source{"p2pBandwidthLatencyTest", "", m.title,
                                     k.latency ? "us" : "GB/s"};
      if (r == c && !take_diagonal) continue;
      if (k.bidir && r > c) continue;  // one total per unordered pair
      require_room_for_a_figure(f.bandwidth.size() + f.latency.size(), f.file.file);
      const bool peer = k.enabled && peer_access(out, r, c);
      if (k.enabled && r != c && !peer) fell_back = true;
      if (k.latency) {
        f.latency.push_back(latency_figure(k, r, c, v, peer, source));
      } else {
        f.bandwidth.push_back(bandwidth_figure(k, r, c, v, peer, source, copy_bytes));
      }
    }
  }
  return fell_back;
}

}  // namespace

ImportedFigures p2p_bandwidth_latency_figures(const P2pBandwidthLatencyOutput& out,
                                              const std::string& file, std::uint64_t copy_bytes) {
  ImportedFigures f;
  f.file.file = file;
  f.file.tool = "p2pBandwidthLatencyTest";
  f.file.format = "text";
  f.file.notes.push_back(
      "copy engine copies of " + std::to_string(copy_bytes) +
      " bytes assumed (the sample's default numElems; its output names neither the size nor "
      "--sm_copy)");
  add_gpus(out, f);
  add_p2p_access(out, f);
  bool fell_back = false;
  std::set<std::string> mappings;
  bool local_done = false;
  for (const auto& m : out.matrices) {
    const MatrixKind k = kind_of(m);
    mappings.insert(m.title + (m.timer.empty() ? "" : " [" + m.timer + "]") + " -> " + k.case_name);
    // The first unidirectional bandwidth matrix's diagonal is each device's local copy.
    const bool take_diagonal = !k.latency && !k.bidir && !local_done;
    if (add_matrix_figures(out, m, k, take_diagonal, copy_bytes, f)) fell_back = true;
    if (take_diagonal) {
      local_done = true;
      mappings.insert(m.title + " (diagonal) -> device_local_ce");
    }
  }
  if (fell_back)
    f.file.notes.push_back(
        "P2P=Enabled figures of pairs without peer access (0 in the P2P Connectivity Matrix) are "
        "copies staged through the host: recorded with p2p false");
  f.file.notes.insert(f.file.notes.end(), out.notes.begin(), out.notes.end());
  f.file.mappings.assign(mappings.begin(), mappings.end());
  f.file.figures = static_cast<int>(f.bandwidth.size() + f.latency.size());
  return f;
}

}  // namespace p2p::import
