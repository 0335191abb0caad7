// The report's matrices as heatmaps: each cell marked by the outcome of the checks that judged
// its figure (fail, warn, pass), a passing cell shaded by the share of its link's ceiling (or of
// the matrix's best figure) it reached, with the path class joining its two GPUs.
#include "report/html_matrices.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "report/html_report.hpp"

namespace p2p::report {

namespace {

// A cell's shade: the share of the link's ceiling when known, else the share of the best (or,
// for latency, the lowest) figure of the same matrix.
std::optional<double> fraction_of(const MatrixCell& c, double best, bool lower_is_better) {
  if (c.status != doc::FigureStatus::kOk || !c.value || *c.value <= 0 || best <= 0)
    return std::nullopt;
  if (c.achieved_pct) return *c.achieved_pct / 100.0;
  return lower_is_better ? best / *c.value : *c.value / best;
}

// The cell's classes and, for a passing cell, its shade; a failing or warning cell carries its
// reason as a tooltip. Without a verdict (`outcomes` null) every measured cell is shaded.
struct CellLook {
  std::string cls = "cell", style, title;
};

CellLook look_of(const std::optional<MatrixCell>& cell, double best, bool lower_is_better,
                 const FigureOutcomes* outcomes) {
  CellLook l;
  if (!cell) {
    l.cls += " na";
    return l;
  }
  if (cell->status == doc::FigureStatus::kWaived) {
    l.cls += " waived";
    return l;
  }
  const auto judged = outcomes && !cell->key.empty() ? outcomes->of(cell->key) : std::nullopt;
  if (judged && judged->outcome != doc::Outcome::kPass) l.title = judged->reason;
  if (cell->status != doc::FigureStatus::kOk) {
    l.cls += " bad o-fail";
  } else if (judged && judged->outcome == doc::Outcome::kFail) {
    l.cls += " o-fail";
  } else if (judged && judged->outcome == doc::Outcome::kWarn) {
    l.cls += " o-warn";
  } else if (outcomes && !judged) {
    l.cls += " o-none";  // no check read this figure: shown, not judged
  } else if (const auto f = fraction_of(*cell, best, lower_is_better)) {
    l.cls += " o-pass";
    l.style = " style=\"background:" + heat_colour(*f) + "\"";
  }
  return l;
}

// One cell: its value, and between two GPUs the path class joining them (NV#, PIX, ... SYS),
// with data-pair naming the route so a reader (or a test in a browser) can find each cell.
std::string heat_cell(const std::optional<MatrixCell>& cell, const std::string& row,
                      const std::string& col, double best, bool lower_is_better,
                      const PairPaths* paths, const FigureOutcomes* outcomes) {
  const CellLook l = look_of(cell, best, lower_is_better, outcomes);
  std::string out = "<td class=\"" + l.cls + "\" data-pair=\"" + html_escape(row + "->" + col) +
                    "\"" + (l.title.empty() ? "" : " title=\"" + html_escape(l.title) + "\"") +
                    l.style + "><span class=\"v\">" + html_escape(cell ? cell_text(cell) : "-") +
                    "</span>";
  const std::string path = paths ? paths->between(row, col) : "";
  if (!path.empty()) out += "<span class=\"path\">" + html_escape(path) + "</span>";
  return out + "</td>";
}

std::string heatmap(const Matrix& m, const PairPaths* paths, const FigureOutcomes* outcomes) {
  const bool lower_is_better = m.lower_is_better;
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
      os << heat_cell(m.cells[i][j], m.rows[i], m.cols[j], best, lower_is_better, paths, outcomes);
    }
    os << "</tr>\n";
  }
  os << "</table>\n";
  for (const auto& n : m.notes) os << "<div class=\"note\">" << html_escape(n) << "</div>\n";
  os << "</div>\n";
  return os.str();
}

bool titled(const Matrix& m, const std::string& case_name) {
  return m.title.rfind(case_name + ",", 0) == 0;
}

}  // namespace

std::string bandwidth_heatmaps(const std::vector<Matrix>& maps, const PairPaths& paths,
                               const FigureOutcomes& outcomes) {
  std::vector<const Matrix*> order;
  for (const auto& m : maps) order.push_back(&m);
  const auto find = [&](const std::string& name) {
    return std::find_if(order.begin(), order.end(),
                        [&](const Matrix* m) { return titled(*m, name); });
  };
  std::ostringstream os;
  const auto p2p = find("ce_unidir_write");
  const auto staged = find("staged");
  if (p2p != order.end() && staged != order.end()) {
    os << "<div class=\"beside\">" << heatmap(**p2p, &paths, &outcomes)
       << heatmap(**staged, &paths, &outcomes) << "</div>\n";
    const Matrix* a = *p2p;
    const Matrix* b = *staged;
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](const Matrix* m) { return m == a || m == b; }),
                order.end());
  }
  os << "<div class=\"maps\">\n";
  for (const auto* m : order) os << heatmap(*m, &paths, &outcomes);
  os << "</div>\n";
  return os.str();
}

std::string render_heatmap(const Matrix& m, const PairPaths* paths,
                           const FigureOutcomes* outcomes) {
  return heatmap(m, paths, outcomes);
}

std::string heat_legend() {
  return "<div class=\"legend heat-legend\"><span class=\"o-fail\">fails its check</span>"
         "<span class=\"o-warn\">passes with a warning</span><span class=\"o-pass\" "
         "style=\"background:" +
         heat_colour(0.3) +
         "\">passes: the darker, the nearer the link's ceiling</span><span "
         "class=\"o-pass\" style=\"background:" +
         heat_colour(1.0) +
         "\">at the ceiling</span><span class=\"o-none\">measured, not judged</span><span "
         "class=\"waived\">waived</span> Hover over a marked cell for its reason.</div>\n";
}

}  // namespace p2p::report
