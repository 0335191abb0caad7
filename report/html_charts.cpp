// The report's charts: a figure against message size as inline SVG, log2 on x; one polyline per
// route or NCCL variant, the legend below; bench sweeps with their link ceilings as dashed lines
// and a ring where each route first reaches 90% of its peak. Charts span the page (the SVG
// scales to its width) and a route keeps its colour on every chart of the page. No scripts: the
// page must open as it is.
#include "report/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <utility>
#include <vector>

#include "common/byte_size.hpp"
#include "document/sweep_summary.hpp"
#include "report/html_report.hpp"

namespace p2p::report {

namespace {

// Okabe and Ito's eight colours, which readers with any common colour-vision deficiency can tell
// apart (yellow, unreadable on white, is swapped for grey); past eight, the dash pattern changes.
constexpr const char* kPalette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                    "#e69f00", "#56b4e9", "#000000", "#999999"};
constexpr const char* kDashes[] = {"", "7 3", "2 3", "9 3 2 3"};
constexpr std::size_t kColours = sizeof kPalette / sizeof *kPalette;

// The page's series colours: a name keeps the colour it got first, on every chart of the page,
// so gpu0->gpu5 is the same line in the d2d chart as in the bidirectional one.
class SeriesColours {
 public:
  std::size_t index(const std::string& name) {
    return index_.emplace(name, index_.size()).first->second;
  }
  std::string stroke(const std::string& name) {
    const std::size_t i = index(name);
    const char* dash = kDashes[(i / kColours) % (sizeof kDashes / sizeof *kDashes)];
    return std::string("stroke=\"") + kPalette[i % kColours] + "\"" +
           (*dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : "");
  }
  const char* colour(const std::string& name) { return kPalette[index(name) % kColours]; }

 private:
  std::map<std::string, std::size_t> index_;
};

// A horizontal line every series of the chart is held to: the link's ceiling.
struct Ceiling {
  std::string label;  // "PCIe Gen5 x16 63.0 GB/s"
  double value = 0;
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (bytes, value), ascending bytes
  std::optional<double> bytes_at_90pct;           // where it first reaches 90% of its peak
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
  void mark_90pct(const std::string& chart, const std::string& line, double bytes) {
    const auto c = lines_.find(chart);
    if (c == lines_.end()) return;
    const auto l = c->second.find(line);
    if (l != c->second.end()) l->second.bytes_at_90pct = bytes;
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

// The chart's size in pixels, and its margins around the plot.
// The right margin holds the ceilings' labels and the last size label.
constexpr double kW = 1000, kH = 300, kLeft = 80, kBottom = 34, kTop = 24, kRight = 150;

// Where a point lands: x is log2 of the size over the plottable sizes' range; y is linear from
// 0 to a little over the largest value, or, with log_y, log10 over whole decades.
struct ChartAxes {
  bool log_y = false;
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;  // x in log2(bytes), y in the series' unit
  double ly0 = 0, ly1 = 0;                // the decades of y, with log_y

  double px(double bytes) const {
    return kLeft + (std::log2(bytes) - x0) / (x1 - x0) * (kW - kLeft - kRight);
  }
  double py(double v) const {
    const double f = log_y ? (std::log10(v) - ly0) / std::max(1.0, ly1 - ly0) : v / (y1 * 1.05);
    return kTop + (1 - f) * (kH - kTop - kBottom);
  }
};

// The axes spanning the series' plottable points; none when no point is plottable or no value
// is above 0 (nothing to draw).
std::optional<ChartAxes> axes_of(const std::vector<Series>& series,
                                 const std::vector<Ceiling>& ceilings, bool log_y) {
  ChartAxes a;
  a.log_y = log_y;
  bool any = false;
  for (const auto& s : series) {
    for (const auto& [x, y] : s.points) {
      if (!plottable(x, y, log_y)) continue;
      const double lx = std::log2(x);
      a.x0 = any ? std::min(a.x0, lx) : lx;
      a.x1 = any ? std::max(a.x1, lx) : lx;
      a.y0 = any ? std::min(a.y0, y) : y;
      a.y1 = any ? std::max(a.y1, y) : y;
      any = true;
    }
  }
  if (!any || a.y1 <= 0) return std::nullopt;
  for (const auto& c : ceilings)
    if (std::isfinite(c.value) && c.value > 0) a.y1 = std::max(a.y1, c.value);
  if (a.x1 == a.x0) a.x1 = a.x0 + 1;
  a.ly0 = log_y ? std::floor(std::log10(a.y0)) : 0;
  a.ly1 = log_y ? std::ceil(std::log10(a.y1)) : 0;
  return a;
}

// The two axis lines, the value ticks with the unit above them, and the size ticks (powers of
// two, at most about 8 of them).
void write_axes(std::ostream& os, const ChartAxes& a, const std::string& unit) {
  os << "<line x1=\"" << kLeft << "\" y1=\"" << kH - kBottom << "\" x2=\"" << kW - kRight
     << "\" y2=\"" << kH - kBottom << "\" stroke=\"#888\"/><line x1=\"" << kLeft << "\" y1=\""
     << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << kH - kBottom << "\" stroke=\"#888\"/>\n";
  std::vector<double> ticks;
  if (a.log_y) {
    for (double e = a.ly0; e <= a.ly1; e += std::max(1.0, std::floor((a.ly1 - a.ly0) / 6)))
      ticks.push_back(std::pow(10.0, e));
  } else {
    for (int k = 0; k <= 4; ++k) ticks.push_back(a.y1 * k / 4);
  }
  for (double v : ticks) {
    char label[32];
    std::snprintf(label, sizeof label, "%.4g", v);
    os << "<text x=\"" << kLeft - 4 << "\" y=\"" << a.py(a.log_y ? v : std::max(v, 0.0)) + 4
       << "\" text-anchor=\"end\">" << label << "</text>\n";
  }
  os << "<text x=\"" << kLeft << "\" y=\"" << kTop - 10 << "\" text-anchor=\"middle\">"
     << html_escape(unit) << (a.log_y ? " (log)" : "") << "</text>\n";
  const int step = std::max(1, static_cast<int>((a.x1 - a.x0) / 8));
  for (int e = static_cast<int>(std::ceil(a.x0)); e <= static_cast<int>(a.x1); e += step) {
    os << "<text x=\"" << a.px(std::exp2(e)) << "\" y=\"" << kH - kBottom + 16
       << "\" text-anchor=\"middle\">" << format_bytes(std::uint64_t{1} << e, ByteStyle::kCompact)
       << "</text>\n";
  }
}

// The ceilings as dashed grey lines, labelled at the right.
void write_ceilings(std::ostream& os, const ChartAxes& a, const std::vector<Ceiling>& ceilings) {
  for (const auto& c : ceilings) {
    if (!std::isfinite(c.value) || c.value <= 0) continue;
    const double y = a.py(c.value);
    os << "<line class=\"ceiling\" x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << kW - kRight
       << "\" y2=\"" << y
       << "\" stroke=\"#555\" stroke-dasharray=\"4 4\"><title>ceiling: " << html_escape(c.label)
       << "</title></line><text x=\"" << kW - kRight + 4 << "\" y=\"" << y + 4 << "\">"
       << html_escape(c.label) << "</text>\n";
  }
}

// One polyline per series (its name as the tooltip), a ring where it first reaches 90% of its
// peak, then the legend under the chart.
void write_lines(std::ostream& os, const ChartAxes& a, const std::vector<Series>& series,
                 SeriesColours& colours) {
  for (const auto& s : series) {
    os << "<polyline fill=\"none\" " << colours.stroke(s.name) << " stroke-width=\"2\" points=\"";
    for (const auto& [x, y] : s.points) {
      if (plottable(x, y, a.log_y)) os << a.px(x) << "," << a.py(y) << " ";
    }
    os << "\"><title>" << html_escape(s.name) << "</title></polyline>\n";
    if (!s.bytes_at_90pct) continue;
    for (const auto& [x, y] : s.points) {
      if (x != *s.bytes_at_90pct || !plottable(x, y, a.log_y)) continue;
      os << "<circle class=\"at90\" cx=\"" << a.px(x) << "\" cy=\"" << a.py(y)
         << "\" r=\"5\" fill=\"none\" stroke=\"" << colours.colour(s.name)
         << "\" stroke-width=\"2\"><title>" << html_escape(s.name) << ": 90% of its peak from "
         << format_bytes(static_cast<std::uint64_t>(x), ByteStyle::kCompact)
         << "</title></circle>\n";
    }
  }
  os << "</svg>\n<div class=\"legend\">";
  for (const auto& s : series) {
    os << "<span style=\"color:" << colours.colour(s.name) << "\">&#9632; " << html_escape(s.name)
       << "</span> ";
  }
  os << "</div>\n";
}

// Value against message size, log2 on x; y linear from 0, or logarithmic where the values
// span decades (NCCL from 8 B to 1 GiB). One polyline per series, the legend below.
std::string chart(const std::string& title, const std::string& unit,
                  const std::vector<Series>& series, SeriesColours& colours,
                  const std::vector<Ceiling>& ceilings = {}, bool log_y = false) {
  const std::optional<ChartAxes> axes = axes_of(series, ceilings, log_y);
  if (!axes) return "";
  std::ostringstream os;
  os << "<h3>" << html_escape(title) << "</h3>\n<svg class=\"chart\" viewBox=\"0 0 " << kW << " "
     << kH << "\" width=\"" << kW << "\" height=\"" << kH << "\" role=\"img\" aria-label=\""
     << html_escape(title) << "\">\n";
  write_axes(os, *axes, unit);
  write_ceilings(os, *axes, ceilings);
  write_lines(os, *axes, series, colours);
  if (std::any_of(series.begin(), series.end(), [](const Series& s) { return s.bytes_at_90pct; }))
    os << "<div class=\"note\">A ring marks where each line first reaches 90% of its peak.</div>\n";
  return os.str();
}

// The distinct ceilings a case's figures were held to, "PCIe Gen5 x16 63.0 GB/s".
std::vector<Ceiling> ceilings_of(const doc::BenchDocument& d, const std::string& case_name) {
  std::map<std::string, double> seen;
  for (const auto& r : d.bandwidth) {
    if (r.case_name != case_name || !r.ceiling_gbps) continue;
    char value[32];
    std::snprintf(value, sizeof value, " %.1f GB/s", *r.ceiling_gbps);
    seen.emplace((r.ceiling_link.empty() ? std::string("ceiling") : r.ceiling_link) + value,
                 *r.ceiling_gbps);
  }
  std::vector<Ceiling> out;
  for (const auto& [label, value] : seen) out.push_back({label, value});
  return out;
}

}  // namespace

std::string size_sweep_charts(const doc::BenchDocument& d) {
  ChartSet sweeps;
  const auto line_of = [](const std::string& src, const std::string& dst, const std::string& part) {
    return src + "->" + dst + (part.empty() ? "" : " " + part);
  };
  for (const auto& r : d.bandwidth) {
    if (r.status != doc::FigureStatus::kOk || !r.median_gbps) continue;
    sweeps.add(r.case_name, line_of(r.src, r.dst, r.part), static_cast<double>(r.bytes),
               *r.median_gbps);
  }
  for (const auto& s : doc::summarize_sweeps(d.bandwidth)) {
    if (s.bytes_at_90pct)
      sweeps.mark_90pct(s.case_name, line_of(s.src, s.dst, s.part),
                        static_cast<double>(*s.bytes_at_90pct));
  }
  SeriesColours colours;
  std::string charts;
  for (const auto& c : sweeps.charts()) {
    const std::vector<Series> series = sweeps.lines(c, 2);
    if (!series.empty())
      charts += chart(c + ": median GB/s by copy size", "GB/s", series, colours, ceilings_of(d, c));
  }
  return charts;
}

std::string nccl_operation_charts(const doc::NcclRun& run) {
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
  SeriesColours colours;
  std::ostringstream os;
  for (const auto& op : by_op.charts()) {
    const std::vector<Series> series = by_op.lines(op, 1);
    if (one_rank) {
      os << chart(
          op +
              ": time per call by message size (one rank: nothing crosses a bus, no bandwidth shown)",
          "us", series, colours, {}, true);
    } else {
      os << chart(op + ": busbw by message size", "GB/s", series, colours, {}, true);
    }
    if (bad[op] > 0)
      os << "<div class=\"note\">" << bad[op] << " size(s) not ok: see the table below</div>\n";
  }
  return os.str();
}

}  // namespace p2p::report
