#include <algorithm>

#include "acceptance/grading.hpp"
#include "acceptance/rules.hpp"
#include "document/case_names.hpp"
#include "document/figure_key.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;

bool usable(const doc::BandwidthResult* r) {
  return r != nullptr && r->status == doc::FigureStatus::kOk && r->median_gbps &&
         *r->median_gbps > 0;
}

void p2p_vs_staged(Judging& j, const Bounds& b) {
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  for (const auto* p2p : j.view.plateaus(doc::cases::kCeUnidirWrite, "", min_bytes)) {
    if (!usable(p2p) || !p2p->p2p.value_or(false)) continue;
    const auto* staged = j.view.plateau(doc::cases::kStaged, p2p->src, p2p->dst, "", min_bytes);
    if (!usable(staged)) continue;
    const double x = *p2p->median_gbps / *staged->median_gbps;
    doc::Check c = make_check("p2p_vs_staged", p2p->src + "->" + p2p->dst, grade_at_least(x, b),
                              "P2P " + gbps(*p2p->median_gbps) + " is " + ratio(x) +
                                  " the same pair staged through host memory (" +
                                  gbps(*staged->median_gbps) + ")" + bounds_text(b, true, ratio),
                              priority::kP2pVsStaged);
    c.value = x;
    c.expected = b.fail;
    c.unit = "x";
    add_check(j.verdict, std::move(c));
  }
}

void p2p_latency(Judging& j, const Bounds& b) {
  for (const auto& l : j.view.doc().latency) {
    if (l.case_name != doc::cases::kLatencyPeer || l.status != doc::FigureStatus::kOk ||
        !l.median_ns || !l.p2p.value_or(false))
      continue;
    const Outcome o = grade_at_most(*l.median_ns, b);
    doc::Check c =
        make_check("p2p_latency", l.src + "->" + l.dst, o,
                   "load latency through peer access " + micros(*l.median_ns) +
                       (o == Outcome::kFail ? ", that of a path staged through the host" : "") +
                       bounds_text(b, false, micros),
                   priority::kP2pLatency);
    c.value = *l.median_ns / 1000;
    c.expected = b.fail / 1000;
    c.unit = "us";
    add_check(j.verdict, std::move(c));
  }
}

// Both directions at once (`sum_case`'s "sum" part) over the faster single direction.
void bidirectional(Judging& j, const Bounds& b, const std::string& sum_case,
                   const std::string& forward, const std::string& backward) {
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  for (const auto* sum : j.view.plateaus(sum_case, "sum", min_bytes)) {
    if (!usable(sum)) continue;
    const auto* ab = j.view.plateau(forward, sum->src, sum->dst, "", min_bytes);
    const auto* ba = j.view.plateau(backward, sum->dst, sum->src, "", min_bytes);
    double one_way = 0;
    for (const auto* r : {ab, ba})
      if (usable(r)) one_way = std::max(one_way, *r->median_gbps);
    if (one_way <= 0) continue;
    const double x = *sum->median_gbps / one_way;
    doc::Check c =
        make_check("bidirectional", doc::figure_key(*sum), grade_at_least(x, b),
                   "both directions at once carry " + gbps(*sum->median_gbps) + ", " + ratio(x) +
                       " one direction alone (" + gbps(one_way) + ")" + bounds_text(b, true, ratio),
                   priority::kBidirectional);
    c.value = x;
    c.expected = b.fail;
    c.unit = "x";
    add_check(j.verdict, std::move(c));
  }
}

// The slower of A->B and B->A over the faster: `forward` from src to dst, `backward` the way
// back (the same case for a GPU pair; d2h for h2d).
void symmetry(Judging& j, const Bounds& b, const std::string& forward,
              const std::string& backward) {
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  for (const auto* ab : j.view.plateaus(forward, "", min_bytes)) {
    if (forward == backward && ab->src > ab->dst) continue;  // each pair once
    const auto* ba = j.view.plateau(backward, ab->dst, ab->src, "", min_bytes);
    if (!usable(ab) || !usable(ba)) continue;
    const double slow = std::min(*ab->median_gbps, *ba->median_gbps);
    const double fast = std::max(*ab->median_gbps, *ba->median_gbps);
    const double x = slow / fast;
    doc::Check c = make_check(
        "direction_symmetry", forward + " " + ab->src + "<->" + ab->dst, grade_at_least(x, b),
        ab->src + "->" + ab->dst + " " + gbps(*ab->median_gbps) + ", " + ba->src + "->" + ba->dst +
            " " + gbps(*ba->median_gbps) + ": the slower is " + ratio(x) + " the faster" +
            bounds_text(b, true, ratio),
        priority::kSymmetry);
    c.value = x;
    c.expected = b.fail;
    c.unit = "x";
    add_check(j.verdict, std::move(c));
  }
}

void not_meaningful(Judging& j, const std::string& rule) {
  add_check(j.verdict, make_check(rule, "GPU pairs", Outcome::kNotMeaningful,
                                  "logical GPUs of one device: there is no peer link to judge",
                                  priority::kOutlier));
}

}  // namespace

void judge_p2p(Judging& j) {
  const Thresholds& t = j.settings.thresholds;
  if (j.view.logical()) {
    if (!j.view.doc().latency.empty() || !j.view.plateaus(doc::cases::kStaged, "", 0).empty()) {
      not_meaningful(j, "p2p_vs_staged");
      not_meaningful(j, "p2p_latency");
    }
    return;
  }
  if (t.p2p_vs_staged) p2p_vs_staged(j, *t.p2p_vs_staged);
  if (t.p2p_latency_ns) p2p_latency(j, *t.p2p_latency_ns);
}

void judge_directions(Judging& j) {
  const Thresholds& t = j.settings.thresholds;
  if (t.bidirectional)
    bidirectional(j, *t.bidirectional, doc::cases::kH2dD2hCe, doc::cases::kH2dCe,
                  doc::cases::kD2hCe);
  if (t.direction_symmetry)
    symmetry(j, *t.direction_symmetry, doc::cases::kH2dCe, doc::cases::kD2hCe);
  if (j.view.logical()) {
    if (!j.view.plateaus(doc::cases::kCeBidir, "sum", 0).empty())
      not_meaningful(j, "bidirectional");
    return;
  }
  if (t.bidirectional)
    bidirectional(j, *t.bidirectional, doc::cases::kCeBidir, doc::cases::kCeUnidirWrite,
                  doc::cases::kCeUnidirWrite);
  if (t.direction_symmetry) {
    symmetry(j, *t.direction_symmetry, doc::cases::kCeUnidirWrite, doc::cases::kCeUnidirWrite);
    symmetry(j, *t.direction_symmetry, doc::cases::kCeUnidirRead, doc::cases::kCeUnidirRead);
  }
}

}  // namespace p2p::accept
