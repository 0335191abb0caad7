#include "cluster/fleet_verdict.hpp"

#include <cstdio>

#include "common/text.hpp"

namespace p2p::cluster {
namespace {

using doc::Check;
using doc::Outcome;

// Among reasons of one outcome: the fleet gate first, then hosts, then single figures.
constexpr int kGatePriority = 10;
constexpr int kHostPriority = 20;
constexpr int kFigurePriority = 30;

Check make(const std::string& rule, const std::string& subject, Outcome o, std::string message,
           int priority) {
  Check c;
  c.rule = rule;
  c.subject = subject;
  c.outcome = o;
  c.message = std::move(message);
  c.priority = priority;
  return c;
}

Check host_check(const doc::HostVerdict& v) {
  // A host that passes with caveats passed only because --allow-caveat accepted them: a warning.
  // A failed doctor step is among the reasons with its headline; the host table shows the
  // doctor's root cause beside every failed host.
  Check c = v.status == doc::HostStatus::kPass
                ? make("host", v.host, v.caveats.empty() ? Outcome::kPass : Outcome::kWarn,
                       std::to_string(v.figures_ok) + " figure(s), topology " +
                           to_string(v.topology.match) +
                           (v.caveats.empty() ? "" : "; accepted: " + doc::caveats_line(v.caveats)),
                       kHostPriority)
                : make("host", v.host, outcome_of(v.status), join(v.reasons, "; "), kHostPriority);
  c.places = {"host " + v.host};  // the suspect counts the hosts the reasons name
  return c;
}

// A figure fails where a host lies far from the fleet on its worse side; one far on the better
// side is named but passes (the fleet's median is not a floor).
Check figure_check(const doc::FigureSpread& s) {
  const std::string unit = s.figure.unit();
  std::string message = "median " + four_digits(s.median) + " " + unit + " over " +
                        std::to_string(s.hosts) + " hosts";
  Check c = make("outlier", std::string(to_string(s.figure.kind)) + "/" + s.key, Outcome::kPass, "",
                 kFigurePriority);
  c.places = {"fleet"};  // its GPUs are each host's own numbering (suspects.hpp)
  for (const auto& d : s.outliers) {
    message += std::string("; ") + (d.worse ? "far worse: " : "far better: ") + d.host + " " +
               four_digits(d.value) + " " + unit + " (" + (d.delta_pct >= 0 ? "+" : "") +
               four_digits(d.delta_pct) + "%, z " + four_digits(d.z) + ")";
    if (d.worse) c.places.push_back("host " + d.host);
    if (!d.worse || c.outcome == Outcome::kFail) continue;
    c.outcome = Outcome::kFail;
    c.value = d.value;
    c.expected = s.median;
    c.unit = unit;
  }
  c.message = message;
  return c;
}

}  // namespace

doc::RunVerdict fleet_verdict(const ClusterRun& run, const OutlierOptions& rule,
                              const std::string& written_by) {
  doc::RunVerdict v;
  v.judged_by = written_by;
  v.policy = "modified z-score beyond " + four_digits(rule.z_threshold) + " on at least " +
             std::to_string(rule.min_hosts) + " hosts";
  add_check(v, make("fleet_gate", "fleet", run.gate_passed ? Outcome::kPass : Outcome::kFail,
                    run.gate_passed ? "topology reference: " + run.topology_reference
                                    : join(run.gate_reasons, "; "),
                    kGatePriority));
  for (const auto& h : run.hosts) {
    add_check(v, host_check(h));
    // Every reader of the fleet's verdict shows what was true of a host's run, failed or not.
    for (const auto& c : h.caveats) add_caveat(v, c.kind, h.host + ": " + c.detail);
  }
  std::size_t unjudged = 0;
  for (const auto& s : run.figures) {
    if (s.judged) {
      add_check(v, figure_check(s));
    } else {
      ++unjudged;
    }
  }
  if (unjudged > 0)
    add_check(v, make("outlier", "fleet", Outcome::kSkipped,
                      std::to_string(unjudged) + " figure(s) measured on fewer than " +
                          std::to_string(rule.min_hosts) + " hosts: not judged",
                      kFigurePriority));
  return v;
}

}  // namespace p2p::cluster
