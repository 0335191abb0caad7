#include "report/compare_verdict.hpp"

#include <cstdio>
#include <map>

#include "acceptance/check_places.hpp"
#include "acceptance/judge.hpp"
#include "common/byte_size.hpp"

namespace p2p::report {
namespace {

using doc::CaveatKind;
using doc::Outcome;

// Caveats that describe a run that was not whole whatever the baseline was.
bool always_disqualifies(CaveatKind k) {
  return k == CaveatKind::kInterrupted || k == CaveatKind::kShared;
}

std::string why(CaveatKind k) {
  switch (k) {
    case CaveatKind::kInterrupted: return "a run cut short cannot pass as whole";
    case CaveatKind::kShared:
      return "figures taken while another process used the GPU are not "
             "the links'";
    case CaveatKind::kLogicalGpus: return "logical GPUs measure the tool, not the links";
    case CaveatKind::kUnverified: return "its figures were not verified";
    case CaveatKind::kWaived: return "figures were waived";
    case CaveatKind::kGateOverride: return "it was measured although the gate blocked it";
  }
  return "";
}

void judge_caveats(Comparison& c, const doc::RunVerdict& base, const doc::RunVerdict& run,
                   const CompareOptions& o) {
  for (const auto& cv : run.caveats) {
    const bool allowed = o.allowed_caveats.count(cv.kind) > 0 ||
                         (cv.kind == CaveatKind::kLogicalGpus && o.allow_logical);
    const bool matched = !always_disqualifies(cv.kind) && base.has_caveat(cv.kind);
    const std::string word = doc::to_string(cv.kind);
    std::string text = "the run is " + word + " (" + cv.detail + "): " + why(cv.kind);
    Outcome outcome = Outcome::kFail;
    if (allowed) {
      outcome = Outcome::kWarn;
      text += "; accepted with --allow-caveat " + word;
    } else if (matched) {
      outcome = Outcome::kPass;
      text += "; the baseline is " + word + " too";
    } else {
      text += " (--allow-caveat " + word + " accepts it)";
    }
    add_caveat(c.verdict, cv.kind, cv.detail);
    add_check(c.verdict, doc::Check{"caveat", word, outcome, text, {}, {}, "", 1, "run", {}});
  }
}

// Where the run was judged when it was measured, its own verdict stands in the comparison: a
// run that failed acceptance does not pass by being no worse than its baseline.
void judge_own_verdict(Comparison& c, const doc::BenchDocument& run) {
  if (!run.verdict) return;
  const doc::RunVerdict& v = *run.verdict;
  const auto reasons = v.reasons();
  const bool failed = v.outcome == Outcome::kFail || v.outcome == Outcome::kError;
  std::string text = "the run's own verdict is " + headline(v);
  if (failed && !reasons.empty())
    text += ": " + reasons.front().rule + " " + reasons.front().subject + ": " +
            reasons.front().message;
  add_check(c.verdict, doc::Check{"run_verdict",
                                  "run",
                                  failed ? v.outcome : Outcome::kPass,
                                  text,
                                  {},
                                  {},
                                  "",
                                  2,
                                  "run",
                                  {}});
}

// A figure on both sides that was held against its baseline: the only kind that can vouch for
// the run. New, missing, one-side-only and not-judged figures say nothing of whether it moved.
bool judged(doc::Change change) {
  return change == doc::Change::kRegressed || change == doc::Change::kImproved ||
         change == doc::Change::kSame || change == doc::Change::kLost;
}

// Why the comparison judged no figure at all ("" when it judged one): a comparison with nothing
// in common, an empty side, or every figure below the judged size or without a number cannot
// pass, whatever else it allowed.
std::string nothing_judged(const std::vector<FigureChange>& figures, const CompareOptions& o) {
  std::map<doc::Change, int> counts;
  for (const auto& f : figures) {
    if (judged(f.change)) return "";
    ++counts[f.change];
  }
  if (figures.empty()) return "no figure on either side: nothing was compared";
  std::string parts;
  for (const auto& [change, n] : counts)
    parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + doc::in_words(change);
  std::string text = "nothing was compared: none of the " + std::to_string(figures.size()) +
                     " figures is in both documents with a number to judge (" + parts + ")";
  if (counts.count(doc::Change::kNotJudged))
    text += "; figures under --min-bytes (" + format_bytes(o.min_bytes, ByteStyle::kSpaced) +
            ") or without a number are not judged";
  return text;
}

// Bandwidth present on both sides but none of it judged (every copy under --min-bytes): latency
// alone cannot vouch for a run whose point is bandwidth. "" when some bandwidth was judged, or
// when neither document has any.
std::string no_bandwidth_judged(const std::vector<FigureChange>& figures, const CompareOptions& o) {
  int bandwidth = 0;
  for (const auto& f : figures) {
    if (f.unit != "GB/s") continue;
    if (judged(f.change)) return "";
    bandwidth += f.change == doc::Change::kNotJudged;
  }
  if (bandwidth == 0) return "";
  return "no bandwidth was compared: all " + std::to_string(bandwidth) +
         " bandwidth figures in both documents are under --min-bytes (" +
         format_bytes(o.min_bytes, ByteStyle::kSpaced) +
         "); latency alone does not vouch for the run (lower --min-bytes to a size both measured)";
}

void judge_figures(Comparison& c, const doc::RunVerdict& run, const CompareOptions& o) {
  const bool missing_allowed = !o.allow_missing.empty();
  for (auto& f : c.figures) {
    f.outcome = doc::outcome_of(f.change, missing_allowed);
    std::string text = std::string(doc::to_string(f.change));
    if (f.change_pct) {
      char b[32];
      std::snprintf(b, sizeof b, " %+.1f%%", *f.change_pct);
      text += b;
    }
    if (f.change == doc::Change::kMissing)
      text += missing_allowed
                  ? ": allowed (" + o.allow_missing + ")"
                  : ": in the baseline, not in the run (--allow-missing REASON accepts it)";
    if ((f.change == doc::Change::kRegressed || f.change == doc::Change::kLost)) {
      // Say what was true of the run where it explains the move.
      for (const auto& cv : run.caveats)
        if (cv.kind == CaveatKind::kShared || cv.kind == CaveatKind::kInterrupted)
          f.detail += (f.detail.empty() ? "" : "; ") + std::string("the run was ") +
                      doc::to_string(cv.kind) + ": " + cv.detail;
    }
    if (!f.detail.empty() && f.outcome != Outcome::kPass) text += " (" + f.detail + ")";
    add_check(c.verdict, doc::Check{"compare",
                                    f.key,
                                    f.outcome,
                                    text,
                                    f.run,
                                    f.baseline,
                                    f.unit,
                                    f.change == doc::Change::kMissing ? 20 : 10,
                                    "baseline",
                                    {}});
  }
  if (const std::string why = nothing_judged(c.figures, o); !why.empty())
    add_check(c.verdict,
              doc::Check{"compare", "figures", Outcome::kFail, why, {}, {}, "", 5, "baseline", {}});
  else if (const std::string bw = no_bandwidth_judged(c.figures, o); !bw.empty())
    add_check(
        c.verdict,
        doc::Check{"compare", "bandwidth", Outcome::kFail, bw, {}, {}, "", 5, "baseline", {}});
}

}  // namespace

void judge_comparison(Comparison& c, const doc::BenchDocument& baseline,
                      const doc::BenchDocument& run, const CompareOptions& options) {
  c.verdict = doc::RunVerdict{};
  c.verdict.judged_by = "compare";
  char tolerance[48];
  std::snprintf(tolerance, sizeof tolerance, "tolerance %g%%", c.tolerance_pct);
  c.verdict.policy = tolerance;
  c.baseline_verdict = accept::verdict_of(baseline, "compare");
  c.run_verdict = accept::verdict_of(run, "compare");
  judge_caveats(c, c.baseline_verdict, c.run_verdict, options);
  judge_own_verdict(c, run);
  judge_figures(c, c.run_verdict, options);
  accept::add_places(c.verdict, accept::DocumentView(run));
}

}  // namespace p2p::report
