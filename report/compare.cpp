#include "report/compare.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "document/figure_key.hpp"
#include "report/compare_verdict.hpp"

namespace p2p::report {

namespace {

struct Figure {
  std::optional<double> median;
  bool ok = true;      // measured and verified
  std::string status;  // the document's word for it
  std::string detail;
  bool judged = true;  // large enough to judge
  bool lower_is_better = false;
  std::string source;      // imported figures: "nvbandwidth v0.8 host_to_device_memcpy_ce"
  std::uint64_t size = 0;  // bytes; 0 for latencies
};

std::string source_text(const std::optional<doc::FigureSource>& s) {
  if (!s) return "";
  return s->tool + (s->version.empty() ? "" : " " + s->version) + " " + s->figure;
}

// NCCL records carry no per-figure source: an imported document's nccl-tests files name it.
std::string nccl_tests_source(const doc::BenchDocument& d) {
  for (const auto& f : d.imported)
    if (f.tool == "nccl-tests") return "nccl-tests" + (f.version.empty() ? "" : " " + f.version);
  return "";
}

using Figures = std::map<std::string, Figure>;

// NCCL results: busbw, the figure nccl-tests users read, except with one rank, where every
// busbw factor is 0 and algbw is the only figure that moves. The rank count is part of the key,
// so runs on different numbers of GPUs are never judged against each other.
void add_collectives(Figures& out, const doc::NcclRun& run, const std::string& prefix,
                     const CompareOptions& o, const std::string& source) {
  for (const auto& r : run.results) {
    const bool one_rank = r.nranks <= 1;
    out[doc::figure_key(r, prefix)] =
        Figure{one_rank ? r.algbw_gbps : r.busbw_gbps,
               r.status == doc::CollectiveStatus::kOk,
               doc::to_string(r.status),
               r.detail,
               r.size_bytes >= o.min_bytes,
               false,
               source.empty() ? "" : source + " " + r.collective + "_perf",
               r.size_bytes};
  }
}

Figures figures_of(const doc::BenchDocument& d, const CompareOptions& o) {
  Figures out;
  for (const auto& b : d.bandwidth) {
    out[doc::figure_key(b)] = Figure{b.median_gbps,
                                     b.status == doc::FigureStatus::kOk,
                                     doc::to_string(b.status),
                                     b.detail,
                                     b.bytes >= o.min_bytes,
                                     false,
                                     source_text(b.source),
                                     b.bytes};
  }
  for (const auto& l : d.latency) {
    out[doc::figure_key(l)] = Figure{l.median_ns,
                                     l.status == doc::FigureStatus::kOk,
                                     doc::to_string(l.status),
                                     l.detail,
                                     true,
                                     true,
                                     source_text(l.source)};
  }
  if (d.nccl) {
    const std::string tests = nccl_tests_source(d);
    add_collectives(out, d.nccl->run, "", o, tests);
    if (d.nccl->p2p_off) add_collectives(out, *d.nccl->p2p_off, "p2p_off ", o, tests);
  }
  return out;
}

doc::Change classify(const Figure* base, const Figure* run, const CompareOptions& o,
                     std::optional<double>& change_pct) {
  if (!base) return doc::Change::kNew;
  if (!run) return doc::Change::kMissing;
  if (base->ok && !run->ok) return doc::Change::kLost;  // P2P waived now, a failed verification
  if (!base->median || !run->median || *base->median <= 0) return doc::Change::kNotJudged;
  change_pct = (*run->median - *base->median) / *base->median * 100.0;
  if (!run->judged) return doc::Change::kNotJudged;
  const double better = run->lower_is_better ? -*change_pct : *change_pct;
  const double tolerance = o.tolerance_pct.value_or(kToleranceOneToolPct);
  if (better < -tolerance) return doc::Change::kRegressed;
  return better > tolerance ? doc::Change::kImproved : doc::Change::kSame;
}

FigureChange judge(const std::string& key, const Figure* base, const Figure* run,
                   const CompareOptions& o) {
  FigureChange c;
  c.key = key;
  c.baseline_status = base ? base->status : "missing";
  c.run_status = run ? run->status : "missing";
  c.baseline_ok = base != nullptr && base->ok;
  c.run_ok = run != nullptr && run->ok;
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
  c.change = classify(base, run, o, c.change_pct);
  c.size_bytes = any->size;
  return c;
}

void refuse_incomparable(const doc::BenchDocument& baseline, const doc::BenchDocument& run,
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
}

std::vector<std::uint64_t> sizes_of(const Figures& figures) {
  std::set<std::uint64_t> sizes;
  for (const auto& [key, f] : figures)
    if (f.size != 0) sizes.insert(f.size);
  return {sizes.begin(), sizes.end()};
}

bool contains(const std::vector<std::uint64_t>& sorted, std::uint64_t size) {
  return std::binary_search(sorted.begin(), sorted.end(), size);
}

}  // namespace

int Comparison::count(doc::Change c) const {
  int n = 0;
  for (const auto& f : figures) n += f.change == c;
  return n;
}

int Comparison::regressions() const {
  return count(doc::Change::kRegressed) + count(doc::Change::kLost);
}

std::string tools_of(const doc::BenchDocument& d) {
  if (d.imported.empty()) return "p2pcheck";
  std::vector<std::string> tools;
  for (const auto& f : d.imported) {
    const std::string t = f.tool + (f.version.empty() ? "" : " " + f.version);
    if (std::find(tools.begin(), tools.end(), t) == tools.end()) tools.push_back(t);
  }
  std::sort(tools.begin(), tools.end());
  std::string out;
  for (const auto& t : tools) out += (out.empty() ? "" : ", ") + t;
  return out;
}

Comparison compare_runs(const doc::BenchDocument& baseline, const doc::BenchDocument& run,
                        const CompareOptions& given) {
  CompareOptions options = given;
  Comparison c;
  if (!options.tolerance_pct) {
    const std::string a = tools_of(baseline), b = tools_of(run);
    options.tolerance_pct = a == b ? kToleranceOneToolPct : kToleranceAcrossToolsPct;
    if (a != b) c.tolerance_why = "the default between different tools: " + a + " against " + b;
  }
  c.tolerance_pct = *options.tolerance_pct;
  refuse_incomparable(baseline, run, options);
  const Figures base = figures_of(baseline, options);
  const Figures now = figures_of(run, options);
  for (const auto& [key, fig] : base) {
    const auto it = now.find(key);
    c.figures.push_back(judge(key, &fig, it == now.end() ? nullptr : &it->second, options));
  }
  for (const auto& [key, fig] : now) {
    if (base.count(key) == 0) c.figures.push_back(judge(key, nullptr, &fig, options));
  }
  // A peer tool measured only its own figures: what it never measured is not "missing".
  if (!baseline.imported.empty() || !run.imported.empty()) {
    for (auto& f : c.figures)
      if (f.change == doc::Change::kNew || f.change == doc::Change::kMissing)
        f.change = doc::Change::kOneSideOnly;
  }
  c.baseline_sizes = sizes_of(base);
  c.run_sizes = sizes_of(now);
  for (const auto s : c.run_sizes) c.common_sizes += contains(c.baseline_sizes, s) ? 1 : 0;
  if (options.common_sizes) {
    for (auto& f : c.figures)
      if (f.size_bytes != 0 &&
          (!contains(c.baseline_sizes, f.size_bytes) || !contains(c.run_sizes, f.size_bytes)))
        f.change = doc::Change::kOneSideOnly;
  }
  judge_comparison(c, baseline, run, options);
  return c;
}

}  // namespace p2p::report
