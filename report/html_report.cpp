#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "acceptance/judge.hpp"
#include "bench/matrix.hpp"
#include "common/byte_size.hpp"
#include "document/bench_document.hpp"
#include "nccl/table.hpp"
#include "report/html_pairs.hpp"
#include "report/html_verdict.hpp"
#include "topology/classify.hpp"

namespace p2p::report {

namespace {

constexpr const char* kStyle = R"(<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1500px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}td.na{color:#999;background:#fafafa}
td.bad{background:#f4b6b6;font-weight:bold}td.waived{background:#e6e6e6;color:#555}
.note{color:#555;font-size:.9em}pre{background:#f7f7f7;padding:.6em;overflow-x:auto}
.pass{color:#1a7f37;font-weight:bold}.block{color:#b42318;font-weight:bold}
svg text{font-size:11px}.legend{font-size:.9em;margin-bottom:1em}.legend span{margin-right:1em}
td .path{display:block;font-size:.75em;color:#444}.maps,.beside{display:flex;flex-wrap:wrap;gap:0 2em;align-items:flex-start}
.beside{flex-wrap:nowrap;overflow-x:auto}tr.bad td{background:#f4b6b6}tr.waived td{background:#e6e6e6}
</style>
)";

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                    "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

// A cell's colour: the share of the link's ceiling when known, else the share of the best
// (or, for latency, the lowest) figure of the same matrix.
std::optional<double> fraction_of(const bench::MatrixCell& c, double best, bool lower_is_better) {
  if (c.status != doc::FigureStatus::kOk || !c.value || *c.value <= 0 || best <= 0)
    return std::nullopt;
  if (c.achieved_pct) return *c.achieved_pct / 100.0;
  return lower_is_better ? best / *c.value : *c.value / best;
}

// One cell: its value, and between two GPUs the path class joining them (NV#, PIX, ... SYS),
// with data-pair naming the route so a reader (or a test in a browser) can find each cell.
std::string heat_cell(const std::optional<bench::MatrixCell>& cell, const std::string& row,
                      const std::string& col, double best, bool lower_is_better,
                      const PairPaths* paths) {
  std::string cls = "cell", style;
  if (!cell) {
    cls += " na";
  } else if (cell->status == doc::FigureStatus::kWaived) {
    cls += " waived";
  } else if (cell->status != doc::FigureStatus::kOk) {
    cls += " bad";
  } else if (const auto f = fraction_of(*cell, best, lower_is_better)) {
    style = " style=\"background:" + heat_colour(*f) + "\"";
  }
  std::string out = "<td class=\"" + cls + "\" data-pair=\"" + html_escape(row + "->" + col) +
                    "\"" + style + "><span class=\"v\">" +
                    html_escape(cell ? bench::cell_text(cell) : "-") + "</span>";
  const std::string path = paths ? paths->between(row, col) : "";
  if (!path.empty()) out += "<span class=\"path\">" + html_escape(path) + "</span>";
  return out + "</td>";
}

std::string heatmap(const bench::Matrix& m, bool lower_is_better, const PairPaths* paths) {
  double best = 0;
  for (const auto& row : m.cells) {
    for (const auto& c : row) {
      if (!c || c->status != doc::FigureStatus::kOk || !c->value) continue;
      if (best == 0 || (lower_is_better ? *c->value < best : *c->value > best)) best = *c->value;
    }
  }
  std::ostringstream os;
  os << "<div class=\"heatmap\"><h3>" << html_escape(m.title) << "</h3>\n<table><tr><th></th>";
  for (const auto& c : m.cols) os << "<th>" << html_escape(c) << "</th>";
  os << "</tr>\n";
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    os << "<tr><th class=\"l\">" << html_escape(m.rows[i]) << "</th>";
    for (std::size_t j = 0; j < m.cols.size(); ++j) {
      os << heat_cell(m.cells[i][j], m.rows[i], m.cols[j], best, lower_is_better, paths);
    }
    os << "</tr>\n";
  }
  os << "</table>\n";
  for (const auto& n : m.notes) os << "<div class=\"note\">" << html_escape(n) << "</div>\n";
  os << "</div>\n";
  return os.str();
}

bool titled(const bench::Matrix& m, const std::string& case_name) {
  return m.title.rfind(case_name + ",", 0) == 0;
}

// The heatmaps in their cases' order, except that the path without P2P (staged through host
// memory) sits beside the P2P copy it stands in for, so a pair that lost P2P reads across.
std::string bandwidth_heatmaps(const std::vector<bench::Matrix>& maps, const PairPaths& paths) {
  std::vector<const bench::Matrix*> order;
  for (const auto& m : maps) order.push_back(&m);
  const auto find = [&](const std::string& name) {
    return std::find_if(order.begin(), order.end(),
                        [&](const bench::Matrix* m) { return titled(*m, name); });
  };
  std::ostringstream os;
  const auto p2p = find("ce_unidir_write");
  const auto staged = find("staged");
  if (p2p != order.end() && staged != order.end()) {
    os << "<div class=\"beside\">" << heatmap(**p2p, false, &paths)
       << heatmap(**staged, false, &paths) << "</div>\n";
    const bench::Matrix* a = *p2p;
    const bench::Matrix* b = *staged;
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](const bench::Matrix* m) { return m == a || m == b; }),
                order.end());
  }
  os << "<div class=\"maps\">\n";
  for (const auto* m : order) os << heatmap(*m, false, &paths);
  os << "</div>\n";
  return os.str();
}

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (bytes, value), ascending bytes
};

// Lines grouped by chart: charts in the order first seen, lines by name within a chart.
class ChartSet {
 public:
  void start(const std::string& chart) {
    if (lines_.count(chart) == 0) order_.push_back(chart);
    lines_[chart];
  }
  void add(const std::string& chart, const std::string& line, double bytes, double value) {
    start(chart);
    Series& s = lines_[chart][line];
    s.name = line;
    s.points.emplace_back(bytes, value);
  }
  const std::vector<std::string>& charts() const { return order_; }
  // The chart's lines with at least `min_points` points, each in ascending size.
  std::vector<Series> lines(const std::string& chart, std::size_t min_points) const {
    std::vector<Series> out;
    for (const auto& [name, line] : lines_.at(chart)) {
      if (line.points.size() < min_points) continue;
      out.push_back(line);
      std::sort(out.back().points.begin(), out.back().points.end());
    }
    return out;
  }

 private:
  std::vector<std::string> order_;
  std::map<std::string, std::map<std::string, Series>> lines_;
};

// A point a chart can place: a size of 1 B to 2^62 B (the axis labels are powers of two that
// must fit in 64 bits; a document read from anywhere may say 0 or 2^64) and a finite value.
bool plottable(double bytes, double value, bool log_y) {
  return bytes >= 1 && bytes <= 0x1p62 && std::isfinite(value) && (!log_y || value > 0);
}

// Value against message size, log2 on x; y linear from 0, or logarithmic where the values
// span decades (NCCL from 8 B to 1 GiB). One polyline per series, the legend below.
std::string chart(const std::string& title, const std::string& unit,
                  const std::vector<Series>& series, bool log_y = false) {
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  bool any = false;
  for (const auto& s : series) {
    for (const auto& [x, y] : s.points) {
      if (!plottable(x, y, log_y)) continue;
      const double lx = std::log2(x);
      x0 = any ? std::min(x0, lx) : lx;
      x1 = any ? std::max(x1, lx) : lx;
      y0 = any ? std::min(y0, y) : y;
      y1 = any ? std::max(y1, y) : y;
      any = true;
    }
  }
  if (!any || y1 <= 0) return "";
  if (x1 == x0) x1 = x0 + 1;
  const double ly0 = log_y ? std::floor(std::log10(y0)) : 0;
  const double ly1 = log_y ? std::ceil(std::log10(y1)) : 0;
  constexpr double kW = 680, kH = 270, kLeft = 70, kBottom = 30, kTop = 24, kRight = 10;
  const auto px = [&](double bytes) {
    return kLeft + (std::log2(bytes) - x0) / (x1 - x0) * (kW - kLeft - kRight);
  };
  const auto py = [&](double v) {
    const double f = log_y ? (std::log10(v) - ly0) / std::max(1.0, ly1 - ly0) : v / (y1 * 1.05);
    return kTop + (1 - f) * (kH - kTop - kBottom);
  };
  std::ostringstream os;
  os << "<h3>" << html_escape(title) << "</h3>\n<svg width=\"" << kW << "\" height=\"" << kH
     << "\" role=\"img\" aria-label=\"" << html_escape(title) << "\">\n";
  os << "<line x1=\"" << kLeft << "\" y1=\"" << kH - kBottom << "\" x2=\"" << kW - kRight
     << "\" y2=\"" << kH - kBottom << "\" stroke=\"#888\"/><line x1=\"" << kLeft << "\" y1=\""
     << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << kH - kBottom << "\" stroke=\"#888\"/>\n";
  std::vector<double> ticks;
  if (log_y) {
    for (double e = ly0; e <= ly1; e += std::max(1.0, std::floor((ly1 - ly0) / 6)))
      ticks.push_back(std::pow(10.0, e));
  } else {
    for (int k = 0; k <= 4; ++k) ticks.push_back(y1 * k / 4);
  }
  for (double v : ticks) {
    char label[32];
    std::snprintf(label, sizeof label, "%.4g", v);
    os << "<text x=\"" << kLeft - 4 << "\" y=\"" << py(log_y ? v : std::max(v, 0.0)) + 4
       << "\" text-anchor=\"end\">" << label << "</text>\n";
  }
  os << "<text x=\"" << kLeft << "\" y=\"" << kTop - 10 << "\" text-anchor=\"middle\">"
     << html_escape(unit) << (log_y ? " (log)" : "") << "</text>\n";
  const int step = std::max(1, static_cast<int>((x1 - x0) / 8));
  for (int e = static_cast<int>(std::ceil(x0)); e <= static_cast<int>(x1); e += step) {
    os << "<text x=\"" << px(std::exp2(e)) << "\" y=\"" << kH - kBottom + 16
       << "\" text-anchor=\"middle\">" << format_bytes(std::uint64_t{1} << e, ByteStyle::kCompact)
       << "</text>\n";
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const char* colour = kPalette[i % (sizeof kPalette / sizeof *kPalette)];
    os << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
    for (const auto& [x, y] : series[i].points) {
      if (plottable(x, y, log_y)) os << px(x) << "," << py(y) << " ";
    }
    os << "\"><title>" << html_escape(series[i].name) << "</title></polyline>\n";
  }
  os << "</svg>\n<div class=\"legend\">";
  for (std::size_t i = 0; i < series.size(); ++i) {
    os << "<span style=\"color:" << kPalette[i % (sizeof kPalette / sizeof *kPalette)]
       << "\">&#9632; " << html_escape(series[i].name) << "</span> ";
  }
  os << "</div>\n";
  return os.str();
}

std::string header(const doc::BenchDocument& d, const std::string& source) {
  std::ostringstream os;
  os << "<h1>p2pcheck " << html_escape(d.written_by)
     << " report: " << html_escape(d.hostname.empty() ? "this host" : d.hostname)
     << "</h1>\n<table>\n";
  const auto row = [&](const std::string& k, const std::string& v) {
    os << "<tr><th class=\"l\">" << html_escape(k) << "</th><td class=\"l\">" << html_escape(v)
       << "</td></tr>\n";
  };
  row("results", source);
  row("started (UTC)", d.started_utc);
  row("p2pcheck", d.tool_version);
  row("driver", d.nvidia_driver_version.empty() ? "unknown" : d.nvidia_driver_version);
  row("CUDA driver / runtime", d.cuda_driver_version + " / " + d.cuda_runtime_version);
  row("environment", d.environment);
  row("topology", d.topology_source);
  os << "<tr><th class=\"l\">gate</th><td class=\"l\">";
  if (d.gate.decision) {
    const bool passed = *d.gate.decision == topo::GateVerdict::kPass;
    os << "<span class=\"" << (passed ? "pass" : "block") << "\">"
       << html_escape(topo::to_string(*d.gate.decision)) << "</span> ";
  } else {
    os << "not run ";
  }
  os << html_escape(d.gate.detail) << (d.skip_gate ? " (--skip-gate given)" : "")
     << "</td></tr>\n</table>\n";
  if (const std::string note = doc::logical_gpus_note(d); !note.empty()) {
    os << "<div class=\"note logical\">" << html_escape(note) << "</div>\n";
  }
  for (const auto& w : d.warnings)
    os << "<div class=\"note\">warning: " << html_escape(w) << "</div>\n";
  if (!d.interrupted.empty())
    os << "<div class=\"note\"><b>interrupted:</b> " << html_escape(d.interrupted) << "</div>\n";
  if (!d.gpus.empty()) {
    os << "<h2>GPUs</h2>\n<table><tr><th>GPU</th><th>device</th><th class=\"l\">PCI</th><th class=\"l\">name</th><th class=\"l\">link</th>"
          "<th>NUMA</th><th class=\"l\">CPUs</th></tr>\n";
    for (const auto& g : d.gpus) {
      os << "<tr><td>" << doc::gpu_label(g) << "</td><td>" << g.cuda_ordinal
         << "</td><td class=\"l\">" << html_escape(g.pci_bus_id) << "</td><td class=\"l\">"
         << html_escape(g.name) << "</td><td class=\"l\">"
         << html_escape(g.link.empty() ? "unknown" : g.link) << "</td><td>" << g.numa_node
         << "</td><td class=\"l\">" << html_escape(g.cpuset) << "</td></tr>\n";
    }
    os << "</table>\n";
  }
  return os.str();
}

// The snapshot's own display matrix (NV#, PIX, PXB, PHB, NODE, SYS), coloured from the best
// path class to the worst, with CUDA's peer access beside it where the document has it.
std::string topology_section(const doc::BenchDocument& d) {
  if (!d.topology) return "";
  const std::vector<std::vector<std::string>> matrix = topo::display_matrix(*d.topology);
  if (matrix.size() < 2) return "";
  const auto rank = [](const std::string& label) -> std::optional<double> {
    if (label.rfind("NV", 0) == 0) return 1.0;
    static const std::map<std::string, double> order = {
        {"PIX", 0.8}, {"PXB", 0.65}, {"PHB", 0.4}, {"NODE", 0.25}, {"SYS", 0.0}};
    const auto it = order.find(label);
    return it == order.end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::ostringstream os;
  os << "<h2>Topology</h2>\n<table><tr><th></th>";
  for (std::size_t j = 0; j < matrix.size(); ++j) os << "<th>GPU" << j << "</th>";
  os << "</tr>\n";
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    os << "<tr><th class=\"l\">GPU" << i << "</th>";
    for (std::size_t j = 0; j < matrix[i].size(); ++j) {
      const std::string& label = matrix[i][j];
      std::string p2p;
      // p2p_access is over the run's GPUs, which are the topology's only in a physical run.
      if (i != j && d.logical_gpus == 0 && i < d.p2p_access.size() && j < d.p2p_access[i].size())
        p2p = d.p2p_access[i][j] ? "" : " (no P2P)";
      const auto f = rank(label);
      os << "<td" << (f ? " style=\"background:" + heat_colour(*f) + "\"" : std::string()) << ">"
         << html_escape(label + p2p) << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</table>\n";
  return os.str();
}

std::string bench_sections(const doc::BenchDocument& d) {
  std::ostringstream os;
  const PairPaths paths(d);
  os << attention_section(d, paths);
  const auto bandwidth = bench::bandwidth_matrices(d.bandwidth, true);
  if (!bandwidth.empty())
    os << "<h2>Bandwidth at the largest size</h2>\n" << bandwidth_heatmaps(bandwidth, paths);
  // One chart per case: each route (and part) measured at two sizes or more a line.
  ChartSet sweeps;
  for (const auto& r : d.bandwidth) {
    if (r.status != doc::FigureStatus::kOk || !r.median_gbps) continue;
    sweeps.add(r.case_name, r.src + "->" + r.dst + (r.part.empty() ? "" : " " + r.part),
               static_cast<double>(r.bytes), *r.median_gbps);
  }
  std::string charts;
  for (const auto& c : sweeps.charts()) {
    const std::vector<Series> series = sweeps.lines(c, 2);
    if (!series.empty()) charts += chart(c + ": median GB/s by copy size", "GB/s", series);
  }
  if (!charts.empty()) os << "<h2>Size sweeps</h2>\n" << charts;
  const auto latency = bench::latency_matrices(d.latency);
  if (!latency.empty()) os << "<h2>Latency</h2>\n";
  for (const auto& m : latency) os << heatmap(m, true, &paths);
  const doc::FigureCounts c = doc::count_figures(d);
  if (c.ok + c.failed + c.waived + c.errors > 0) {
    os << "<p>" << c.ok << " figures verified, " << c.failed << " FAILED verification, " << c.waived
       << " waived, " << c.errors << " errors</p>\n";
  }
  return os.str();
}

std::string nccl_run_section(const doc::NcclRun& run, const std::string& title) {
  std::ostringstream os;
  os << "<h2>" << html_escape(title) << "</h2>\n";
  // Per operation: one line per (type, placement, pair), busbw. With one rank no data crosses
  // a bus (busbw is 0) and in place nothing moves at all (algbw grows without bound as the
  // time per call stays flat), so the chart shows the time per call, which means something.
  const bool one_rank = !run.results.empty() && run.results.front().nranks <= 1;
  ChartSet by_op;
  std::map<std::string, int> bad;
  for (const auto& r : run.results) {
    by_op.start(r.collective);
    if (r.status != doc::CollectiveStatus::kOk) ++bad[r.collective];
    const auto value = one_rank ? r.time_us : r.busbw_gbps;
    if (r.status != doc::CollectiveStatus::kOk || !value) continue;
    std::string name = r.dtype + (r.in_place ? " in-place" : " out-of-place");
    if (r.src_rank && r.dst_rank)
      name += " " + std::to_string(*r.src_rank) + "->" + std::to_string(*r.dst_rank);
    by_op.add(r.collective, name, static_cast<double>(r.size_bytes), *value);
  }
  for (const auto& op : by_op.charts()) {
    const std::vector<Series> series = by_op.lines(op, 1);
    if (one_rank) {
      os << chart(
          op +
              ": time per call by message size (one rank: nothing crosses a bus, no bandwidth shown)",
          "us", series, true);
    } else {
      os << chart(op + ": busbw by message size", "GB/s", series, true);
    }
    if (bad[op] > 0)
      os << "<div class=\"note\">" << bad[op] << " size(s) not ok: see the table below</div>\n";
  }
  os << "<pre>" << html_escape(nccl::format_transport_matrix(run) + nccl::format_pair_matrix(run))
     << "</pre>\n";
  os << "<details><summary>every size, as nccl-tests prints it</summary><pre>"
     << html_escape(nccl::format_environment(run.environment) + nccl::format_results_table(run))
     << "</pre></details>\n";
  return os.str();
}

std::string nccl_sections(const doc::BenchDocument& d, const std::string& source) {
  if (!d.nccl) return "";
  const doc::NcclResultsSection& report = *d.nccl;
  std::string out = nccl_run_section(report.run, "NCCL");
  if (report.p2p_off) out += nccl_run_section(*report.p2p_off, "NCCL with NCCL_P2P_DISABLE=1");
  if (!report.verdicts.empty())
    out += "<pre>" + html_escape(nccl::format_verdicts(report.verdicts)) + "</pre>\n";
  return out;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string heat_colour(double fraction) {
  const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  char b[40];
  std::snprintf(b, sizeof b, "hsl(%d,70%%,78%%)", static_cast<int>(std::lround(120 * f)));
  return b;
}

const char* report_style() { return kStyle; }

std::string render_heatmap(const bench::Matrix& m, bool lower_is_better, const PairPaths* paths) {
  return heatmap(m, lower_is_better, paths);
}

std::string render_html_report(const doc::BenchDocument& doc, const std::string& source) {
  const std::string nccl =
      nccl_sections(doc, source);  // first: a malformed section throws before any output
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>p2pcheck "
     << html_escape(doc.written_by) << ": " << html_escape(doc.hostname) << "</title>\n"
     << kStyle << "<style>" << verdict_style() << "</style></head><body>\n"
     << verdict_banner(accept::verdict_of(doc, "report")) << header(doc, source)
     << topology_section(doc) << bench_sections(doc) << nccl << "</body></html>\n";
  return os.str();
}

}  // namespace p2p::report
