#include "report/bench_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "common/byte_size.hpp"
#include "document/endpoint.hpp"
#include "document/figure_key.hpp"
#include "document/sweep_summary.hpp"

namespace p2p::report {
namespace {

bool label_less(const std::string& a, const std::string& b) {
  const auto ea = doc::endpoint_from_label(a);
  const auto eb = doc::endpoint_from_label(b);
  if (ea && eb) return *ea < *eb;
  if (ea || eb) return static_cast<bool>(ea);
  return a < b;
}

std::vector<std::string> sorted_labels(const std::set<std::string>& labels) {
  std::vector<std::string> v(labels.begin(), labels.end());
  std::sort(v.begin(), v.end(), label_less);
  return v;
}

std::size_t index_of(const std::vector<std::string>& v, const std::string& x) {
  return static_cast<std::size_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

std::string figure_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), v >= 1000 ? "%.1f" : "%.2f", v);
  return buf;
}

template <class Record>
std::string route_of(const Record& r) {
  return r.src + "->" + r.dst;
}

template <class Record>
void add_note(std::vector<std::string>& notes, const Record& r) {
  if (r.status == doc::FigureStatus::kOk && r.detail.empty()) return;
  const std::string prefix =
      r.status == doc::FigureStatus::kOk ? "" : std::string(doc::to_string(r.status)) + ": ";
  notes.push_back(route_of(r) + ": " + prefix + r.detail);
}

std::string kind_title(const std::string& part) {
  if (part == "sum") return "total of the transfers running at once";
  if (part == "dir") return "each direction while the others run";
  return "";
}

}  // namespace

std::vector<Matrix> bandwidth_matrices(const std::vector<doc::BandwidthResult>& records,
                                       bool largest_size_only) {
  std::vector<std::string> case_order;
  std::map<std::string, std::set<std::uint64_t>> sizes;
  for (const auto& r : records) {
    if (sizes.find(r.case_name) == sizes.end()) case_order.push_back(r.case_name);
    sizes[r.case_name].insert(r.bytes);
  }
  std::vector<Matrix> out;
  for (const auto& name : case_order) {
    std::vector<std::uint64_t> wanted(sizes[name].begin(), sizes[name].end());
    if (largest_size_only) wanted = {wanted.back()};
    for (std::uint64_t bytes : wanted) {
      for (bool sum : {false, true}) {
        std::vector<const doc::BandwidthResult*> picked;
        for (const auto& r : records) {
          if (r.case_name == name && r.bytes == bytes && (r.part == "sum") == sum)
            picked.push_back(&r);
        }
        if (picked.empty()) continue;
        Matrix m;
        const std::string kind = kind_title(picked.front()->part);
        m.title = name + ", " + format_bytes(bytes, ByteStyle::kCompact) + " copies" +
                  (kind.empty() ? "" : ", " + kind) +
                  ": GB/s (row = source, column = destination; % of link ceiling)";
        std::set<std::string> rows, cols;
        for (const auto* r : picked) {
          rows.insert(r->src);
          cols.insert(r->dst);
        }
        m.rows = sorted_labels(rows);
        m.cols = sorted_labels(cols);
        m.cells.assign(m.rows.size(), std::vector<std::optional<MatrixCell>>(m.cols.size()));
        std::set<std::string> ceilings;
        for (const auto* r : picked) {
          m.cells[index_of(m.rows, r->src)][index_of(m.cols, r->dst)] =
              MatrixCell{r->median_gbps, r->achieved_pct, r->status, "", doc::figure_key(*r)};
          if (r->ceiling_gbps && !r->ceiling_link.empty()) {
            ceilings.insert(r->ceiling_link + " = " + figure_text(*r->ceiling_gbps) + " GB/s");
          }
          add_note(m.notes, *r);
        }
        for (const auto& c : ceilings) m.notes.insert(m.notes.begin(), "ceiling: " + c);
        out.push_back(std::move(m));
      }
    }
  }
  return out;
}

std::vector<Matrix> latency_matrices(const std::vector<doc::LatencyResult>& records) {
  std::vector<std::string> case_order;
  for (const auto& r : records) {
    if (std::find(case_order.begin(), case_order.end(), r.case_name) == case_order.end()) {
      case_order.push_back(r.case_name);
    }
  }
  std::vector<Matrix> out;
  for (const auto& name : case_order) {
    Matrix m;
    m.title = name + ": ns per dependent load (row = GPU loading, column = memory)";
    m.lower_is_better = true;
    std::set<std::string> rows, cols;
    for (const auto& r : records) {
      if (r.case_name != name) continue;
      rows.insert(r.src);
      cols.insert(r.dst);
    }
    m.rows = sorted_labels(rows);
    m.cols = sorted_labels(cols);
    m.cells.assign(m.rows.size(), std::vector<std::optional<MatrixCell>>(m.cols.size()));
    for (const auto& r : records) {
      if (r.case_name != name) continue;
      m.cells[index_of(m.rows, r.src)][index_of(m.cols, r.dst)] =
          MatrixCell{r.median_ns, std::nullopt, r.status, "", doc::figure_key(r)};
      add_note(m.notes, r);
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<Matrix> sweep_tables(const std::vector<doc::BandwidthResult>& records) {
  std::vector<std::string> case_order;
  std::map<std::string, std::set<std::uint64_t>> sizes;
  for (const auto& r : records) {
    if (sizes.find(r.case_name) == sizes.end()) case_order.push_back(r.case_name);
    sizes[r.case_name].insert(r.bytes);
  }
  const auto summaries = doc::summarize_sweeps(records);
  std::vector<Matrix> out;
  for (const auto& name : case_order) {
    if (sizes[name].size() < 2) continue;
    Matrix m;
    m.title = name + " by message size: median GB/s";
    for (std::uint64_t b : sizes[name]) m.cols.push_back(format_bytes(b, ByteStyle::kCompact));
    m.cols.push_back("peak");
    m.cols.push_back("90% at");
    std::vector<std::tuple<std::string, std::string, std::string>> routes;  // src, dst, part
    for (const auto& r : records) {
      if (r.case_name != name) continue;
      const auto key = std::make_tuple(r.src, r.dst, r.part);
      if (std::find(routes.begin(), routes.end(), key) == routes.end()) routes.push_back(key);
    }
    for (const auto& [src, dst, part] : routes) {
      m.rows.push_back(src + "->" + dst + (part == "sum" ? " total" : ""));
      std::vector<std::optional<MatrixCell>> row(m.cols.size());
      for (const auto& r : records) {
        if (r.case_name != name || r.src != src || r.dst != dst || r.part != part) continue;
        row[index_of(m.cols, format_bytes(r.bytes, ByteStyle::kCompact))] =
            MatrixCell{r.median_gbps, std::nullopt, r.status, "", doc::figure_key(r)};
      }
      for (const auto& s : summaries) {
        if (s.case_name != name || s.src != src || s.dst != dst || s.part != part) continue;
        row[m.cols.size() - 2] =
            MatrixCell{s.peak_gbps, std::nullopt, doc::FigureStatus::kOk, "", ""};
        if (s.bytes_at_90pct) {
          row[m.cols.size() - 1] =
              MatrixCell{std::nullopt, std::nullopt, doc::FigureStatus::kOk,
                         format_bytes(*s.bytes_at_90pct, ByteStyle::kCompact), ""};
        }
      }
      m.cells.push_back(std::move(row));
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::string cell_text(const std::optional<MatrixCell>& c) {
  if (!c) return "-";
  if (!c->text.empty()) return c->text;
  if (c->status == doc::FigureStatus::kWaived) return "waived";
  if (c->status == doc::FigureStatus::kError) return "error";
  std::string t = c->value ? figure_text(*c->value) : "?";
  if (c->achieved_pct) t += " (" + std::to_string(std::lround(*c->achieved_pct)) + "%)";
  if (c->status == doc::FigureStatus::kFailed) t += " FAILED";
  return t;
}

std::string render(const Matrix& m) {
  std::vector<std::vector<std::string>> grid;
  grid.push_back({""});
  for (const auto& c : m.cols) grid.back().push_back(c);
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    grid.push_back({m.rows[i]});
    for (std::size_t j = 0; j < m.cols.size(); ++j) grid.back().push_back(cell_text(m.cells[i][j]));
  }
  std::vector<std::size_t> width(grid.front().size(), 0);
  for (const auto& row : grid)
    for (std::size_t j = 0; j < row.size(); ++j) width[j] = std::max(width[j], row[j].size());
  std::ostringstream os;
  os << m.title << "\n";
  for (const auto& row : grid) {
    for (std::size_t j = 0; j < row.size(); ++j) {
      const std::size_t pad = width[j] - row[j].size();
      if (j == 0) {
        os << row[j] << std::string(pad, ' ');
      } else {
        os << "  " << std::string(pad, ' ') << row[j];
      }
    }
    os << "\n";
  }
  for (const auto& n : m.notes) os << "  " << n << "\n";
  return os.str();
}

}  // namespace p2p::report
