#include "report/compare.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "nccl/results_section.hpp"

namespace p2p::report {

namespace {

struct Figure {
  std::optional<double> median;
  std::string status;
  std::string detail;
  bool judged = true;  // large enough to judge
  bool lower_is_better = false;
  std::string source;  // imported figures: "nvbandwidth v0.8 host_to_device_memcpy_ce"
};

std::string source_text(const std::optional<bench::FigureSource>& s) {
  if (!s) return "";
  return s->tool + (s->version.empty() ? "" : " " + s->version) + " " + s->figure;
}

// NCCL records carry no per-figure source: an imported document's nccl-tests files name it.
std::string nccl_tests_source(const bench::BenchDocument& d) {
  for (const auto& f : d.imported)
    if (f.tool == "nccl-tests") return "nccl-tests" + (f.version.empty() ? "" : " " + f.version);
  return "";
}

using Figures = std::map<std::string, Figure>;

// NCCL results: busbw, the figure nccl-tests users read, except with one rank, where every
// busbw factor is 0 and algbw is the only figure that moves. The rank count is part of the key,
// so runs on different numbers of GPUs are never judged against each other.
void add_collectives(Figures& out, const nccl::NcclRun& run, const std::string& prefix,
                     const CompareOptions& o, const std::string& source) {
  for (const auto& r : run.results) {
    const bool one_rank = r.nranks <= 1;
    std::string key = prefix + "nccl " + r.collective + " " + r.dtype +
                      (r.in_place ? " in_place" : " out_of_place") + " " +
                      std::to_string(r.nranks) + "r";
    if (r.src_rank && r.dst_rank)
      key += " " + std::to_string(*r.src_rank) + "->" + std::to_string(*r.dst_rank);
    key += " " + format_bytes(r.size_bytes, ByteStyle::kCompact) + (one_rank ? " algbw" : " busbw");
    out[key] = Figure{one_rank ? r.algbw_gbps : r.busbw_gbps,
                      r.status,
                      r.detail,
                      r.size_bytes >= o.min_bytes,
                      false,
                      source.empty() ? "" : source + " " + r.collective + "_perf"};
  }
}

Figures figures_of(const bench::BenchDocument& d, const std::string& source,
                   const CompareOptions& o) {
  Figures out;
  for (const auto& b : d.bandwidth) {
    std::string key = b.case_name + " " + b.src + "->" + b.dst +
                      (b.part.empty() ? "" : " " + b.part) + " " +
                      format_bytes(b.bytes, ByteStyle::kCompact);
    out[key] = Figure{b.median_gbps,          b.status, b.detail,
                      b.bytes >= o.min_bytes, false,    source_text(b.source)};
  }
  for (const auto& l : d.latency) {
    out[l.case_name + " " + l.src + "->" + l.dst] =
        Figure{l.median_ns, l.status, l.detail, true, true, source_text(l.source)};
  }
  if (!d.nccl.is_null()) {
    const nccl::NcclResultsSection report = nccl::nccl_section_from_document(d, source);
    const std::string tests = nccl_tests_source(d);
    add_collectives(out, report.run, "", o, tests);
    if (report.p2p_off) add_collectives(out, *report.p2p_off, "p2p_off ", o, tests);
  }
  return out;
}

FigureChange judge(const std::string& key, const Figure* base, const Figure* run,
                   const CompareOptions& o) {
  FigureChange c;
  c.key = key;
  c.baseline_status = base ? base->status : "missing";
  c.run_status = run ? run->status : "missing";
  const Figure* any = run ? run : base;
  c.unit = any->lower_is_better ? "ns" : "GB/s";
  if (base) {
    c.baseline = base->median;
    c.baseline_source = base->source;
  }
  if (run) {
    c.run = run->median;
    c.detail = run->detail;
    c.run_source = run->source;
  }
  if (!base) {
    c.verdict = "new";
    return c;
  }
  if (!run) {
    c.verdict = "missing";
    return c;
  }
  if (base->status == "ok" && run->status != "ok") {
    c.verdict = "lost";  // e.g. P2P waived in the run, or a verification failure
    return c;
  }
  if (!base->median || !run->median || *base->median <= 0) {
    c.verdict = "not judged";
    return c;
  }
  c.change_pct = (*run->median - *base->median) / *base->median * 100.0;
  if (!run->judged) {
    c.verdict = "not judged";
    return c;
  }
  const double better = run->lower_is_better ? -*c.change_pct : *c.change_pct;
  c.verdict = better < -o.tolerance_pct  ? "regressed"
              : better > o.tolerance_pct ? "improved"
                                         : "same";
  return c;
}

}  // namespace

int Comparison::regressions() const {
  int n = 0;
  for (const auto& f : figures) n += (f.verdict == "regressed" || f.verdict == "lost") ? 1 : 0;
  return n;
}

Comparison compare_runs(const bench::BenchDocument& baseline, const bench::BenchDocument& run,
                        const CompareOptions& options) {
  // An imported document holds peer tools' figures of either kind: it stands against both.
  const bool imported = baseline.written_by == "import" || run.written_by == "import";
  if (baseline.written_by != run.written_by && !imported) {
    throw InputError("compare: the baseline was written by `p2pcheck " + baseline.written_by +
                     "`, the run by `p2pcheck " + run.written_by +
                     "`; compare documents of the same kind");
  }
  if ((baseline.logical_gpus > 0) != (run.logical_gpus > 0) && !options.allow_logical) {
    const bool base_logical = baseline.logical_gpus > 0;
    throw InputError(
        std::string("compare: the ") + (base_logical ? "baseline" : "run") + " ran on " +
        std::to_string(base_logical ? baseline.logical_gpus : run.logical_gpus) +
        " logical GPUs, the " + (base_logical ? "run" : "baseline") +
        " on physical ones; its figures measure the tool, not the links (--allow-logical compares them anyway)");
  }
  const Figures base = figures_of(baseline, "baseline", options);
  const Figures now = figures_of(run, "run", options);
  Comparison c;
  for (const auto& [key, fig] : base) {
    const auto it = now.find(key);
    c.figures.push_back(judge(key, &fig, it == now.end() ? nullptr : &it->second, options));
  }
  for (const auto& [key, fig] : now) {
    if (base.count(key) == 0) c.figures.push_back(judge(key, nullptr, &fig, options));
  }
  // A peer tool measured only its own figures: what it never measured is not "missing".
  if (imported) {
    for (auto& f : c.figures)
      if (f.verdict == "new" || f.verdict == "missing") f.verdict = "one side only";
  }
  return c;
}

std::string imported_lines(const bench::BenchDocument& baseline, const bench::BenchDocument& run) {
  std::string out;
  for (const auto& [name, doc] : {std::pair{"baseline", &baseline}, std::pair{"run", &run}}) {
    if (doc->imported.empty()) {
      if (!baseline.imported.empty() || !run.imported.empty())
        out += std::string("note: the ") + name + " was measured by p2pcheck " + doc->tool_version +
               " (`p2pcheck " + doc->written_by + "`)\n";
      continue;
    }
    out += std::string("note: the ") + name + " was imported from " + bench::imported_from(*doc) +
           "\n  its figures are matched to p2pcheck's by meaning:\n";
    for (const auto& f : doc->imported)
      for (const auto& m : f.mappings) out += "    " + f.tool + " " + m + "\n";
  }
  return out;
}

std::string logical_gpus_lines(const bench::BenchDocument& baseline,
                               const bench::BenchDocument& run) {
  std::string out;
  for (const auto& [name, doc] : {std::pair{"baseline", &baseline}, std::pair{"run", &run}}) {
    const std::string note = bench::logical_gpus_note(*doc);
    if (!note.empty()) out += std::string("note: the ") + name + " ran " + note + "\n";
  }
  return out;
}

std::string format_comparison(const Comparison& c, const std::string& baseline_name,
                              const std::string& run_name, const CompareOptions& options) {
  std::string out = "baseline: " + baseline_name + "\nrun:      " + run_name + "\n";
  char line[256];
  std::snprintf(line, sizeof line, "judged: figures of %s and more, moves beyond %.1f%%\n\n",
                format_bytes(options.min_bytes, ByteStyle::kCompact).c_str(),
                options.tolerance_pct);
  out += line;
  std::snprintf(line, sizeof line, "%-60s %12s %12s %9s  %s\n", "figure", "baseline", "run",
                "change", "verdict");
  out += line;
  auto num = [](const std::optional<double>& v, const std::string& status) {
    if (!v) return status == "ok" ? std::string("-") : status;
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", *v);
    return std::string(b);
  };
  for (const auto& f : c.figures) {
    // The table lists what moved.
    if (f.verdict == "same" || f.verdict == "not judged" || f.verdict == "one side only") continue;
    std::string change = "-";
    if (f.change_pct) {
      char b[32];
      std::snprintf(b, sizeof b, "%+.1f%%", *f.change_pct);
      change = b;
    }
    std::snprintf(line, sizeof line, "%-60s %12s %12s %9s  %s%s\n", (f.key + " " + f.unit).c_str(),
                  num(f.baseline, f.baseline_status).c_str(), num(f.run, f.run_status).c_str(),
                  change.c_str(), f.verdict.c_str(),
                  f.detail.empty() || f.verdict != "lost" ? "" : (" (" + f.detail + ")").c_str());
    out += line;
  }
  int same = 0, unjudged = 0, one_sided = 0;
  for (const auto& f : c.figures) {
    same += f.verdict == "same";
    unjudged += f.verdict == "not judged";
    one_sided += f.verdict == "one side only";
  }
  std::snprintf(line, sizeof line,
                "\n%d figures compared: %d regressed or lost, %d unchanged, %d not judged\n",
                static_cast<int>(c.figures.size()) - one_sided, c.regressions(), same, unjudged);
  out += line;
  if (one_sided > 0) {
    std::snprintf(
        line, sizeof line,
        "%d figures on one side only, not shown: an imported document holds what its tool measured\n",
        one_sided);
    out += line;
  }
  return out;
}

}  // namespace p2p::report
