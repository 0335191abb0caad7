#include "report/side_by_side.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "report/bench_matrix.hpp"
#include "report/figure_outcomes.hpp"
#include "report/html_pairs.hpp"
#include "report/html_report.hpp"
#include "report/html_verdict.hpp"
#include "report/nccl_matrix.hpp"

namespace p2p::report {
namespace {

std::string number(const std::optional<double>& v) {
  if (!v) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", *v);
  return b;
}

std::string gate_text(const doc::BenchDocument& d) {
  return std::string(d.gate.decision ? topo::to_string(*d.gate.decision) : "not run") +
         (d.skip_gate ? " (--skip-gate)" : "");
}

std::string hosts_table(const doc::BenchDocument& a, const std::string& a_name,
                        const doc::BenchDocument& b, const std::string& b_name) {
  std::ostringstream os;
  os << "<table><tr><th></th><th class=\"l\">baseline: " << html_escape(a_name)
     << "</th><th class=\"l\">run: " << html_escape(b_name) << "</th></tr>\n";
  const auto row = [&](const std::string& k, const std::string& x, const std::string& y) {
    os << "<tr><th class=\"l\">" << html_escape(k) << "</th><td class=\"l\">" << html_escape(x)
       << "</td><td class=\"l\">" << html_escape(y) << "</td></tr>\n";
  };
  row("host", a.hostname, b.hostname);
  row("written by", a.written_by, b.written_by);
  row("started (UTC)", a.started_utc, b.started_utc);
  row("driver", a.nvidia_driver_version, b.nvidia_driver_version);
  row("CUDA driver / runtime", a.cuda_driver_version + " / " + a.cuda_runtime_version,
      b.cuda_driver_version + " / " + b.cuda_runtime_version);
  row("environment", a.environment, b.environment);
  row("topology", a.topology_source, b.topology_source);
  row("gate", gate_text(a), gate_text(b));
  row("GPUs", std::to_string(a.gpus.size()), std::to_string(b.gpus.size()));
  row("logical GPUs", std::to_string(a.logical_gpus), std::to_string(b.logical_gpus));
  row("interrupted", a.interrupted, b.interrupted);
  os << "</table>\n";
  return os.str();
}

int verdict_rank(const std::string& v) {
  static const std::map<std::string, int> order = {
      {"lost", 0},    {"regressed", 1}, {"improved", 2},  {"new", 3},
      {"missing", 4}, {"same", 5},      {"not_judged", 6}};
  const auto it = order.find(v);
  return it == order.end() ? 7 : it->second;
}

// Why a figure moved, as far as the documents say: the run's own verdict on that figure (the
// link ceiling it missed, the verification it failed), else what the run recorded of it, else
// how far it moved against the tolerance.
std::string why_of(const FigureChange& f, const FigureOutcomes& run, double tolerance_pct) {
  if (const auto j = run.of(f.key); j && !j->reason.empty()) return "in the run: " + j->reason;
  if (!f.detail.empty()) return f.detail;
  char b[96] = "";
  if (f.change_pct && (f.change == doc::Change::kRegressed || f.change == doc::Change::kImproved))
    std::snprintf(b, sizeof b, "%+.1f%%, beyond the %.0f%% tolerance", *f.change_pct,
                  tolerance_pct);
  else if (f.change == doc::Change::kMissing)
    return "in the baseline, not in the run";
  else if (f.change == doc::Change::kNew)
    return "in the run, not in the baseline";
  else if (f.change == doc::Change::kLost)
    return "the baseline's figure was " + f.baseline_status + ", the run's is " + f.run_status;
  return b;
}

std::string changes_table(const Comparison& c, const FigureOutcomes& run, double tolerance_pct) {
  std::vector<const FigureChange*> moved;
  int quiet = 0;
  for (const auto& f : c.figures) {
    if (f.change == doc::Change::kSame || f.change == doc::Change::kNotJudged) {
      ++quiet;
      continue;
    }
    moved.push_back(&f);
  }
  std::stable_sort(moved.begin(), moved.end(), [](const FigureChange* x, const FigureChange* y) {
    return verdict_rank(doc::to_string(x->change)) < verdict_rank(doc::to_string(y->change));
  });
  std::ostringstream os;
  os << "<h2>What changed, worst first</h2>\n";
  if (moved.empty()) {
    os << "<p>Nothing moved beyond the tolerance: " << quiet
       << " figures the same or too small to judge.</p>\n";
    return os.str();
  }
  os << "<table class=\"changes\"><tr><th class=\"l\">figure</th><th>baseline</th><th>run</th>"
        "<th>change</th><th class=\"l\">verdict</th><th class=\"l\">why</th></tr>\n";
  for (const auto* f : moved) {
    const bool bad = f->outcome == doc::Outcome::kFail;
    char change[32] = "-";
    if (f->change_pct) std::snprintf(change, sizeof change, "%+.1f%%", *f->change_pct);
    os << "<tr" << (bad ? " class=\"bad\"" : "") << "><td class=\"l\">"
       << html_escape(f->key + " " + f->unit) << "</td><td>" << number(f->baseline) << "</td><td>"
       << number(f->run) << "</td><td>" << change << "</td><td class=\"l\">"
       << html_escape(doc::to_string(f->change)) << "</td><td class=\"l\">"
       << html_escape(why_of(*f, run, tolerance_pct)) << "</td></tr>\n";
  }
  os << "</table>\n<p class=\"note\">" << quiet
     << " more figures the same or too small to judge.</p>\n";
  return os.str();
}

// The matrix of what changed, on the run's layout: each cell the change from the baseline's
// same cell, marked by the comparison's outcome for that figure, a passing cell shaded by the
// share of the baseline it kept; "" when the baseline has no cell to compare with.
std::optional<Matrix> delta_matrix(const Matrix& base, const Matrix& run) {
  Matrix d;
  d.title = "change, baseline to run: " + run.title;
  d.rows = run.rows;
  d.cols = run.cols;
  d.cells.assign(run.rows.size(), std::vector<std::optional<MatrixCell>>(run.cols.size()));
  const bool lower_is_better = run.lower_is_better;
  bool any = false;
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    const auto bi = std::find(base.rows.begin(), base.rows.end(), run.rows[i]) - base.rows.begin();
    if (static_cast<std::size_t>(bi) == base.rows.size()) continue;
    for (std::size_t j = 0; j < run.cols.size(); ++j) {
      const auto bj =
          std::find(base.cols.begin(), base.cols.end(), run.cols[j]) - base.cols.begin();
      if (static_cast<std::size_t>(bj) == base.cols.size()) continue;
      const auto& b = base.cells[bi][bj];
      const auto& r = run.cells[i][j];
      if (!b || !r || !b->value || !r->value || *b->value <= 0 ||
          b->status != doc::FigureStatus::kOk || r->status != doc::FigureStatus::kOk)
        continue;
      const double kept = lower_is_better ? *b->value / *r->value : *r->value / *b->value;
      char text[32];
      std::snprintf(text, sizeof text, "%+.1f%%", (*r->value - *b->value) / *b->value * 100.0);
      d.cells[i][j] =
          MatrixCell{kept, std::min(kept, 1.0) * 100.0, doc::FigureStatus::kOk, text, r->key};
      any = true;
    }
  }
  if (!any) return std::nullopt;
  d.notes.push_back(
      "each cell: the run's figure against the baseline's; marked by the comparison's verdict, "
      "shaded by the share of the baseline the run kept");
  return d;
}

// Every matrix of a document: its bench pairs at their largest size, its latencies, and its NCCL
// collectives and sendrecv pairs (nccl_matrix.hpp).
std::vector<Matrix> all_matrices(const doc::BenchDocument& d) {
  std::vector<Matrix> out = bandwidth_matrices(d.bandwidth, true);
  for (auto& m : latency_matrices(d.latency)) out.push_back(std::move(m));
  if (d.nccl) {
    for (auto& m : nccl_matrices(d.nccl->run)) out.push_back(std::move(m));
    if (d.nccl->p2p_off)
      for (auto& m : nccl_matrices(*d.nccl->p2p_off, "p2p_off ")) out.push_back(std::move(m));
  }
  return out;
}

// Each matrix of either document, the baseline's beside the run's, then what changed between
// them; a matrix only one of them has stands alone. Each cell is marked by its own document's
// verdict, the change by the comparison's.
std::string matrices(const doc::BenchDocument& a, const FigureOutcomes& oa,
                     const doc::BenchDocument& b, const FigureOutcomes& ob, const Comparison& c) {
  const PairPaths pa(a), pb(b);
  const FigureOutcomes changes(c.verdict);
  const std::vector<Matrix> ma = all_matrices(a), mb = all_matrices(b);
  std::ostringstream os;
  if (!ma.empty() || !mb.empty()) os << "<h2>Matrices, baseline beside run</h2>\n" << heat_legend();
  std::vector<bool> used(mb.size(), false);
  for (const auto& m : ma) {
    os << "<div class=\"beside\">" << render_heatmap(m, &pa, &oa);
    for (std::size_t i = 0; i < mb.size(); ++i) {
      if (used[i] || mb[i].title != m.title) continue;
      used[i] = true;
      os << render_heatmap(mb[i], &pb, &ob);
      if (const auto d = delta_matrix(m, mb[i])) os << render_heatmap(*d, &pb, &changes);
      break;
    }
    os << "</div>\n";
  }
  for (std::size_t i = 0; i < mb.size(); ++i) {
    if (!used[i]) os << "<div class=\"beside\">" << render_heatmap(mb[i], &pb, &ob) << "</div>\n";
  }
  return os.str();
}

}  // namespace

std::string render_side_by_side(const doc::BenchDocument& a, const std::string& a_name,
                                const doc::BenchDocument& b, const std::string& b_name,
                                CompareOptions options) {
  options.allow_logical = true;  // shown, not judged: the header says which side is logical
  const Comparison c = compare_runs(a, b, options);
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>p2pcheck: "
     << html_escape(a_name) << " beside " << html_escape(b_name) << "</title>\n"
     << report_style() << "<style>" << verdict_style() << "</style></head><body>\n"
     << verdict_banner(c.verdict) << "<h1>p2pcheck: " << html_escape(a_name)
     << " (baseline) beside " << html_escape(b_name) << " (run)</h1>\n"
     << hosts_table(a, a_name, b, b_name);
  const std::string logical = logical_gpus_lines(a, b);
  if (!logical.empty()) os << "<div class=\"note logical\">" << html_escape(logical) << "</div>\n";
  const FigureOutcomes oa(c.baseline_verdict), ob(c.run_verdict);
  os << changes_table(c, ob, c.tolerance_pct) << matrices(a, oa, b, ob, c) << "</body></html>\n";
  return os.str();
}

}  // namespace p2p::report
