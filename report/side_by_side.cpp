#include "report/side_by_side.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "report/bench_matrix.hpp"
#include "report/html_pairs.hpp"
#include "report/html_report.hpp"

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
  os << "<table><tr><th></th><th class=\"l\">" << html_escape(a_name) << "</th><th class=\"l\">"
     << html_escape(b_name) << "</th></tr>\n";
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
      {"missing", 4}, {"same", 5},      {"not judged", 6}};
  const auto it = order.find(v);
  return it == order.end() ? 7 : it->second;
}

std::string changes_table(const Comparison& c) {
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
  os << "<table class=\"changes\"><tr><th class=\"l\">figure</th><th>first</th><th>second</th><th>change</th>"
        "<th class=\"l\">verdict</th><th class=\"l\">why</th></tr>\n";
  for (const auto* f : moved) {
    const bool bad = f->outcome == doc::Outcome::kFail;
    char change[32] = "-";
    if (f->change_pct) std::snprintf(change, sizeof change, "%+.1f%%", *f->change_pct);
    os << "<tr" << (bad ? " class=\"bad\"" : "") << "><td class=\"l\">"
       << html_escape(f->key + " " + f->unit) << "</td><td>" << number(f->baseline) << "</td><td>"
       << number(f->run) << "</td><td>" << change << "</td><td class=\"l\">"
       << html_escape(doc::to_string(f->change)) << "</td><td class=\"l\">"
       << html_escape(f->detail) << "</td></tr>\n";
  }
  os << "</table>\n<p class=\"note\">" << quiet
     << " more figures the same or too small to judge.</p>\n";
  return os.str();
}

// Each matrix of either document, the first's beside the second's; a matrix only one of them
// has stands alone.
std::string matrices(const doc::BenchDocument& a, const doc::BenchDocument& b) {
  const PairPaths pa(a), pb(b);
  std::vector<Matrix> ma = bandwidth_matrices(a.bandwidth, true);
  std::vector<Matrix> mb = bandwidth_matrices(b.bandwidth, true);
  for (auto& m : latency_matrices(a.latency)) ma.push_back(std::move(m));
  for (auto& m : latency_matrices(b.latency)) mb.push_back(std::move(m));
  const auto latency = [](const Matrix& m) {
    return m.title.find("ns per dependent load") != std::string::npos;
  };
  std::ostringstream os;
  if (!ma.empty() || !mb.empty()) os << "<h2>Matrices, first beside second</h2>\n";
  std::vector<bool> used(mb.size(), false);
  for (const auto& m : ma) {
    os << "<div class=\"beside\">" << render_heatmap(m, latency(m), &pa);
    for (std::size_t i = 0; i < mb.size(); ++i) {
      if (used[i] || mb[i].title != m.title) continue;
      used[i] = true;
      os << render_heatmap(mb[i], latency(mb[i]), &pb);
      break;
    }
    os << "</div>\n";
  }
  for (std::size_t i = 0; i < mb.size(); ++i) {
    if (!used[i])
      os << "<div class=\"beside\">" << render_heatmap(mb[i], latency(mb[i]), &pb) << "</div>\n";
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
     << report_style() << "</head><body>\n<h1>p2pcheck: " << html_escape(a_name) << " beside "
     << html_escape(b_name) << "</h1>\n"
     << hosts_table(a, a_name, b, b_name);
  const std::string logical = logical_gpus_lines(a, b);
  if (!logical.empty()) os << "<div class=\"note logical\">" << html_escape(logical) << "</div>\n";
  os << changes_table(c) << matrices(a, b) << "</body></html>\n";
  return os.str();
}

}  // namespace p2p::report
