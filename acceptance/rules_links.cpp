#include "acceptance/grading.hpp"
#include "acceptance/rules.hpp"
#include "document/case_names.hpp"
#include "document/figure_key.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;

// The one-way copy-engine cases every rule of this file judges: the host link of each GPU, and
// each GPU pair with peer access, both as the source writes and as the destination reads.
const char* const kHostCases[] = {doc::cases::kH2dCe, doc::cases::kD2hCe};
const char* const kPeerCases[] = {doc::cases::kCeUnidirWrite, doc::cases::kCeUnidirRead};

std::vector<const doc::BandwidthResult*> one_way_figures(const DocumentView& v,
                                                         std::uint64_t min_bytes, bool peers) {
  std::vector<const doc::BandwidthResult*> out;
  for (const char* c : kHostCases)
    for (const auto* r : v.plateaus(c, "", min_bytes)) out.push_back(r);
  if (!peers) return out;
  for (const char* c : kPeerCases)
    for (const auto* r : v.plateaus(c, "", min_bytes))
      if (r->p2p.value_or(false)) out.push_back(r);
  return out;
}

void ceiling_check(Judging& j, const doc::BandwidthResult& r, int& unknown) {
  if (r.status != doc::FigureStatus::kOk || !r.median_gbps) return;
  const auto cap = j.view.ceiling(r);
  if (!cap) {
    ++unknown;
    return;
  }
  const bool cross_socket = j.view.path(r.src, r.dst) == topo::PathClass::kSys;
  const auto& b =
      cross_socket ? j.settings.thresholds.link_ceiling_sys : j.settings.thresholds.link_ceiling;
  if (!b) return;
  const double fraction = *r.median_gbps / cap->gbps;
  doc::Check c =
      make_check("link_ceiling", doc::figure_key(r), grade_at_least(fraction, *b),
                 gbps(*r.median_gbps) + " is " + percent(fraction) + " of " + cap->link + " (" +
                     gbps(cap->gbps) + " one way)" + (cross_socket ? " across sockets" : "") +
                     bounds_text(*b, true, percent),
                 priority::kLinkCeiling);
  c.basis = cap->basis;
  c.value = fraction;
  c.expected = b->fail;
  c.unit = "x";
  add_check(j.verdict, std::move(c));
}

bool floor_fits(const Floor& f, const doc::BandwidthResult& r, const DocumentView& v) {
  if (!f.case_name.empty() && f.case_name != r.case_name) return false;
  if (f.path) return v.path(r.src, r.dst) == f.path;
  return true;
}

void bandwidth_floor(Judging& j, const Floor& f) {
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  std::vector<const doc::BandwidthResult*> figures;
  if (f.case_name.empty()) {
    figures = one_way_figures(j.view, min_bytes, !j.view.logical());
  } else {
    for (const auto* r : j.view.plateaus(f.case_name, "", min_bytes)) figures.push_back(r);
  }
  int judged = 0;
  for (const auto* r : figures) {
    if (!floor_fits(f, *r, j.view) || r->status != doc::FigureStatus::kOk || !r->median_gbps)
      continue;
    ++judged;
    const bool low = *r->median_gbps < *f.min_gbps;
    doc::Check c =
        make_check("floor", doc::figure_key(*r), low ? Outcome::kFail : Outcome::kPass,
                   gbps(*r->median_gbps) + (low ? " is below" : " meets") +
                       " the policy's floor of " + gbps(*f.min_gbps) + " (" + f.where + ")",
                   priority::kFloor);
    c.value = *r->median_gbps;
    c.expected = *f.min_gbps;
    c.unit = "GB/s";
    add_check(j.verdict, std::move(c));
  }
  if (judged == 0)
    add_check(j.verdict, make_check("floor", f.where, Outcome::kSkipped,
                                    "no figure of this run falls under it", priority::kFloor));
}

void latency_floor(Judging& j, const Floor& f) {
  const std::string wanted = f.case_name.empty() ? doc::cases::kLatencyPeer : f.case_name;
  int judged = 0;
  for (const auto& l : j.view.doc().latency) {
    if (l.case_name != wanted || l.status != doc::FigureStatus::kOk || !l.median_ns) continue;
    if (f.path && j.view.path(l.src, l.dst) != f.path) continue;
    if (wanted == doc::cases::kLatencyPeer && j.view.logical()) continue;
    ++judged;
    const bool high = *l.median_ns > *f.max_us * 1000;
    doc::Check c =
        make_check("floor", doc::figure_key(l), high ? Outcome::kFail : Outcome::kPass,
                   micros(*l.median_ns) + (high ? " is above" : " is within") +
                       " the policy's bound of " + micros(*f.max_us * 1000) + " (" + f.where + ")",
                   priority::kFloor);
    c.value = *l.median_ns / 1000;
    c.expected = *f.max_us;
    c.unit = "us";
    add_check(j.verdict, std::move(c));
  }
  if (judged == 0)
    add_check(j.verdict, make_check("floor", f.where, Outcome::kSkipped,
                                    "no figure of this run falls under it", priority::kFloor));
}

}  // namespace

void judge_link_ceilings(Judging& j) {
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  int unknown = 0;
  for (const auto* r : one_way_figures(j.view, min_bytes, !j.view.logical()))
    ceiling_check(j, *r, unknown);
  if (unknown > 0)
    add_check(j.verdict,
              make_check("link_ceiling", "figures", Outcome::kSkipped,
                         std::to_string(unknown) +
                             " figure(s) over a link whose speed the topology does not give",
                         priority::kLinkCeiling));
  if (j.view.logical() && !j.view.plateaus(kPeerCases[0], "", min_bytes).empty())
    add_check(j.verdict, make_check("link_ceiling", "GPU pairs", Outcome::kNotMeaningful,
                                    "copies between logical GPUs of one device cross no link",
                                    priority::kLinkCeiling));
}

void judge_floors(Judging& j) {
  for (const Floor& f : j.settings.floors) {
    if (f.min_gbps) bandwidth_floor(j, f);
    if (f.max_us) latency_floor(j, f);
  }
}

}  // namespace p2p::accept
