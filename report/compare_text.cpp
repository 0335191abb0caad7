// The text of `p2pcheck compare`: what was true of either run at the top, the figures that
// moved, the count of every change, and the verdict last.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/byte_size.hpp"
#include "document/suspects.hpp"
#include "report/compare.hpp"

namespace p2p::report {
namespace {

// Missing figures can be hundreds (a lost GPU): the table names the first of them, the count
// line all of them.
constexpr int kMissingRowsShown = 20;

// A figure without a number: "-" where it is ok (nothing to show), else its status word.
std::string number(const std::optional<double>& v, bool ok, const std::string& status) {
  if (!v) return ok ? std::string("-") : status;
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", *v);
  return b;
}

// The figure column is as wide as the longest name shown, at most this, so that a row with its
// numbers fits in 100 columns; a longer name pushes its numbers right.
constexpr std::size_t kFigureColumnMost = 52;
// A row's "why" goes on a line of its own below it where it would pass this.
constexpr std::size_t kRowWidth = 100;

std::string row(const FigureChange& f, std::size_t width) {
  std::string change = "-";
  if (f.change_pct) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f%%", *f.change_pct);
    change = b;
  }
  const bool say_why =
      !f.detail.empty() && f.change != doc::Change::kSame && f.change != doc::Change::kImproved;
  char line[512];
  std::snprintf(
      line, sizeof line, "%-*s %10s %10s %8s  %s", static_cast<int>(width),
      (f.key + " " + f.unit).c_str(), number(f.baseline, f.baseline_ok, f.baseline_status).c_str(),
      number(f.run, f.run_ok, f.run_status).c_str(), change.c_str(), doc::to_string(f.change));
  std::string out = line;
  if (say_why) {
    const std::string why = "(" + f.detail + ")";
    out += out.size() + 1 + why.size() <= kRowWidth ? " " + why : "\n    " + why;
  }
  return out + "\n";
}

// Worst first: lost, regressed, missing, then new and improved; within one kind the largest
// loss first, then by name.
int rank_of(doc::Change c) {
  switch (c) {
    case doc::Change::kLost: return 0;
    case doc::Change::kRegressed: return 1;
    case doc::Change::kMissing: return 2;
    case doc::Change::kNew: return 3;
    case doc::Change::kImproved: return 4;
    default: return 5;
  }
}

std::vector<const FigureChange*> rows_worst_first(const Comparison& c) {
  std::vector<const FigureChange*> rows;
  for (const auto& f : c.figures)
    // The table lists what moved, what was lost and what is missing.
    if (f.change != doc::Change::kSame && f.change != doc::Change::kNotJudged &&
        f.change != doc::Change::kOneSideOnly)
      rows.push_back(&f);
  std::stable_sort(rows.begin(), rows.end(), [](const FigureChange* a, const FigureChange* b) {
    if (rank_of(a->change) != rank_of(b->change)) return rank_of(a->change) < rank_of(b->change);
    const double x = a->change_pct.value_or(0.0), y = b->change_pct.value_or(0.0);
    if (x != y) return a->change == doc::Change::kImproved ? x > y : x < y;
    return a->key < b->key;
  });
  return rows;
}

std::string size_range(const std::vector<std::uint64_t>& sizes) {
  return std::to_string(sizes.size()) + " (" + format_bytes(sizes.front(), ByteStyle::kCompact) +
         " to " + format_bytes(sizes.back(), ByteStyle::kCompact) + ")";
}

// One line where the runs measured different size grids: what each has, how many in common,
// and the option that compares only those.
std::string grid_lines(const Comparison& c, const CompareOptions& options) {
  if (c.baseline_sizes.empty() || c.run_sizes.empty() || c.baseline_sizes == c.run_sizes) return "";
  std::string out = "note: the runs measured different sizes: baseline " +
                    size_range(c.baseline_sizes) + ", run " + size_range(c.run_sizes) + ", " +
                    std::to_string(c.common_sizes) + " in common";
  return out + (options.common_sizes ? "; only those are compared (--common-sizes)\n"
                                     : "; figures of the others are missing or new for that alone "
                                       "(--common-sizes compares the sizes both have)\n");
}

}  // namespace

std::string imported_lines(const doc::BenchDocument& baseline, const doc::BenchDocument& run) {
  std::string out;
  for (const auto& [name, doc] : {std::pair{"baseline", &baseline}, std::pair{"run", &run}}) {
    if (doc->imported.empty()) {
      if (!baseline.imported.empty() || !run.imported.empty())
        out += std::string("note: the ") + name + " was measured by p2pcheck " + doc->tool_version +
               " (`p2pcheck " + doc->written_by + "`)\n";
      continue;
    }
    out += std::string("note: the ") + name + " was imported from " + doc::imported_from(*doc) +
           "\n  its figures are matched to p2pcheck's by meaning:\n";
    for (const auto& f : doc->imported)
      for (const auto& m : f.mappings) out += "    " + f.tool + " " + m + "\n";
  }
  return out;
}

std::string logical_gpus_lines(const doc::BenchDocument& baseline, const doc::BenchDocument& run) {
  std::string out;
  for (const auto& [name, doc] : {std::pair{"baseline", &baseline}, std::pair{"run", &run}}) {
    const std::string note = doc::logical_gpus_note(*doc);
    if (!note.empty()) out += std::string("note: the ") + name + " ran " + note + "\n";
  }
  return out;
}

std::string caveat_lines(const Comparison& c) {
  std::string out;
  for (const auto& k : c.verdict.checks) {
    if (k.rule != "caveat" && k.rule != "run_verdict") continue;
    if (k.rule == "run_verdict" && k.outcome == doc::Outcome::kPass) continue;
    const char* tag = k.outcome == doc::Outcome::kFail    ? "CAVEAT (fails the comparison): "
                      : k.outcome == doc::Outcome::kError ? "CAVEAT (the run erred): "
                                                          : "caveat: ";
    out += tag + k.message + "\n";
  }
  return out;
}

std::string change_counts(const Comparison& c) {
  std::string out = std::to_string(c.figures.size()) + " figures:";
  const doc::Change all[] = {doc::Change::kRegressed, doc::Change::kLost,
                             doc::Change::kMissing,   doc::Change::kImproved,
                             doc::Change::kSame,      doc::Change::kNew,
                             doc::Change::kNotJudged, doc::Change::kOneSideOnly};
  for (std::size_t i = 0; i < std::size(all); ++i)
    out +=
        std::string(i ? ", " : " ") + std::to_string(c.count(all[i])) + " " + doc::in_words(all[i]);
  return out + "\n";
}

std::string format_comparison(const Comparison& c, const std::string& baseline_name,
                              const std::string& run_name, const CompareOptions& options) {
  std::string out = "baseline: " + baseline_name + "\nrun:      " + run_name + "\n";
  // The suspect before the table, so that it is read before the rows it explains.
  if (const auto s = doc::suspect_of(c.verdict)) out += doc::suspect_line(*s) + "\n";
  out += caveat_lines(c);
  out += grid_lines(c, options);
  const std::vector<const FigureChange*> rows = rows_worst_first(c);
  std::size_t width = 6;
  for (const FigureChange* f : rows)
    width = std::max(width, std::min(kFigureColumnMost, f->key.size() + 1 + f->unit.size()));
  char line[256];
  std::snprintf(line, sizeof line, "judged: figures of %s and more, moves beyond %.1f%%",
                format_bytes(options.min_bytes, ByteStyle::kCompact).c_str(), c.tolerance_pct);
  out += line +
         (c.tolerance_why.empty() ? std::string()
                                  : "\n  (" + c.tolerance_why + "; --tolerance-pct sets it)") +
         "\n\n";
  std::snprintf(line, sizeof line, "%-*s %10s %10s %8s  %s\n", static_cast<int>(width), "figure",
                "baseline", "run", "change", "verdict");
  out += line;
  int missing_shown = 0;
  for (const FigureChange* f : rows) {
    if (f->change == doc::Change::kMissing && missing_shown++ >= kMissingRowsShown) continue;
    out += row(*f, width);
  }
  if (missing_shown > kMissingRowsShown)
    out += "... and " + std::to_string(missing_shown - kMissingRowsShown) +
           " more missing (every one is in --format json and the JUnit report)\n";
  out += "\n" + change_counts(c);
  if (c.count(doc::Change::kOneSideOnly) > 0)
    out +=
        "figures on one side only are not shown: an imported document holds what its tool "
        "measured\n";
  // The figures' reasons are the table's rows: the block below counts them, it does not repeat
  // them; the suspect headed the table.
  doc::VerdictBlock how;
  how.shown_above = [](const doc::Check& k) {
    return k.rule == "compare" && k.subject != "figures" && k.subject != "bandwidth";
  };
  how.suspect_shown_above = true;
  return out + doc::format_verdict(c.verdict, "compare", how);
}

}  // namespace p2p::report
