#include <algorithm>
#include <map>

#include "acceptance/grading.hpp"
#include "acceptance/rules.hpp"
#include "common/median.hpp"
#include "document/case_names.hpp"
#include "document/figure_key.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;

struct Member {
  std::string subject;
  double value = 0;
};

// Each member against the median of its class; classes smaller than the policy says are not
// judged (a median of two says nothing about which one is the odd one).
void judge_class(Judging& j, const std::string& rule, const std::string& cls,
                 const std::vector<Member>& members, const Bounds& b, bool more_is_better,
                 const std::string& unit, int prio) {
  if (static_cast<int>(members.size()) < j.settings.thresholds.outlier_min_members) return;
  std::vector<double> values;
  for (const auto& m : members) values.push_back(m.value);
  const double mid = median(values);
  if (mid <= 0) return;
  for (const auto& m : members) {
    const double x = m.value / mid;
    const Outcome o = more_is_better ? grade_at_least(x, b) : grade_at_most(x, b);
    const auto show = [&unit](double v) { return unit == "GB/s" ? gbps(v) : micros(v); };
    doc::Check c = make_check(rule, m.subject, o,
                              show(m.value) + " is " + ratio(x) + " the median of the " +
                                  std::to_string(members.size()) + " " + cls + " (" + show(mid) +
                                  ")" + bounds_text(b, more_is_better, ratio),
                              prio);
    c.value = x;
    c.expected = b.fail;
    c.unit = "x";
    add_check(j.verdict, std::move(c));
  }
}

void bandwidth_outliers(Judging& j, const Bounds& b) {
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  // Host links: grouped by the link they could carry, so a GPU in an x8 slot by design is not
  // held to its x16 neighbours (the ceiling rule judges it against its own link).
  for (const char* c :
       {doc::cases::kH2dCe, doc::cases::kD2hCe, doc::cases::kH2dSm, doc::cases::kD2hSm}) {
    std::map<std::string, std::vector<Member>> classes;
    for (const auto* r : j.view.plateaus(c, "", min_bytes)) {
      if (r->status != doc::FigureStatus::kOk || !r->median_gbps) continue;
      const auto cap = j.view.ceiling(*r);
      classes[cap ? cap->link : "host links"].push_back({doc::figure_key(*r), *r->median_gbps});
    }
    for (const auto& [link, members] : classes)
      judge_class(j, "class_outlier", std::string(c) + " figures over " + link, members, b, true,
                  "GB/s", priority::kOutlier);
  }
  if (j.view.logical()) return;
  for (const char* c : {doc::cases::kCeUnidirWrite, doc::cases::kCeUnidirRead, doc::cases::kSmWrite,
                        doc::cases::kSmRead, doc::cases::kStaged}) {
    std::map<std::string, std::vector<Member>> classes;
    for (const auto* r : j.view.plateaus(c, "", min_bytes)) {
      const std::string path = j.view.path_label(r->src, r->dst);
      if (r->status != doc::FigureStatus::kOk || !r->median_gbps || path.empty()) continue;
      classes[path].push_back({doc::figure_key(*r), *r->median_gbps});
    }
    for (const auto& [path, members] : classes)
      judge_class(j, "class_outlier", std::string(c) + " " + path + " pairs", members, b, true,
                  "GB/s", priority::kOutlier);
  }
}

void latency_outliers(Judging& j, const Bounds& b) {
  std::map<std::string, std::vector<Member>> classes;
  for (const auto& l : j.view.doc().latency) {
    if (l.status != doc::FigureStatus::kOk || !l.median_ns) continue;
    std::string cls = l.case_name;
    if (l.case_name == doc::cases::kLatencyPeer) {
      if (j.view.logical()) continue;
      const std::string path = j.view.path_label(l.src, l.dst);
      if (path.empty()) continue;
      cls += " " + path + " pairs";
    } else {
      cls += " figures";
    }
    classes[cls].push_back({doc::figure_key(l), *l.median_ns});
  }
  for (const auto& [cls, members] : classes)
    judge_class(j, "latency_outlier", cls, members, b, false, "ns", priority::kLatencyOutlier);
}

}  // namespace

void judge_outliers(Judging& j) {
  const Thresholds& t = j.settings.thresholds;
  if (t.class_outlier) bandwidth_outliers(j, *t.class_outlier);
  if (t.latency_outlier) latency_outliers(j, *t.latency_outlier);
}

void judge_stability(Judging& j) {
  const auto& limit = j.settings.thresholds.spread_warn_pct;
  if (!limit) return;
  int steady = 0;
  for (const auto& r : j.view.doc().bandwidth) {
    const auto* plateau =
        j.view.plateau(r.case_name, r.src, r.dst, r.part, j.settings.thresholds.min_judged_bytes);
    if (plateau != &r || r.status != doc::FigureStatus::kOk || !r.spread_pct) continue;
    if (*r.spread_pct <= *limit) {
      ++steady;
      continue;
    }
    char text[160];
    std::snprintf(text, sizeof text,
                  "samples spread %.0f%% (%.1f to %.1f GB/s around a median of %.1f); warn "
                  "above %.0f%%",
                  *r.spread_pct, r.min_gbps.value_or(0), r.max_gbps.value_or(0),
                  r.median_gbps.value_or(0), *limit);
    add_check(j.verdict,
              make_check("stability", doc::figure_key(r), Outcome::kWarn, text, priority::kSpread));
  }
  if (steady > 0)
    add_check(j.verdict,
              make_check("stability", "figures", Outcome::kPass,
                         std::to_string(steady) + " judged figure(s) with samples within " +
                             std::to_string(static_cast<int>(*limit)) + "% of each other",
                         priority::kSpread));
}

}  // namespace p2p::accept
