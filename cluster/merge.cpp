#include "cluster/merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "cluster/fleet_verdict.hpp"
#include "common/exit_codes.hpp"

namespace p2p::cluster {
namespace {

HostVerdict describe_host(const HostRun& h, const HostTopology& topology,
                          const std::set<doc::CaveatKind>& allowed) {
  HostVerdict v;
  v.host = h.name();
  v.source = h.source;
  v.last_step = h.last_step();
  v.exit_code = h.exit_code;
  v.gate_passed = h.gate_passed;
  v.topology = topology;
  v.notes = h.notes;
  if (h.doctor_verdict.is_object()) {
    v.doctor_state = h.doctor_verdict.value("state", "");
    v.root_cause = h.doctor_verdict.value("headline", "");
  }
  for (const auto& f : h.figures)
    v.figures_ok += f.status == doc::FigureStatus::kOk && f.value ? 1 : 0;
  if (!h.unreadable.empty()) {
    v.reasons.push_back("no result: " + h.unreadable);
  } else if (!h.ended) {
    v.reasons.push_back("no result: stopped after step `" + v.last_step + "`");
  }
  for (const auto& s : h.steps) {
    if (s.exit_code != kExitOk)
      v.reasons.push_back(s.name + " failed (exit " + std::to_string(s.exit_code) +
                          "): " + s.summary);
  }
  if (h.gate_passed && !*h.gate_passed && !h.gate_block.empty())
    v.reasons.push_back("gate blocked: " + h.gate_block);
  if (h.ended && h.exit_code && *h.exit_code != kExitOk && h.steps.empty())
    v.reasons.push_back("its run ended with exit " + std::to_string(*h.exit_code));
  for (const auto& c : h.caveats) {
    if (allowed.count(c.kind) > 0) continue;
    const std::string word = doc::to_string(c.kind);
    v.reasons.push_back("its run is " + word + (c.detail.empty() ? "" : " (" + c.detail + ")") +
                        ": it cannot pass as a whole run (--allow-caveat " + word + " accepts it)");
  }
  v.caveats = h.caveats;
  if (topology.match == doc::TopologyMatch::kDiffers) {
    v.reasons.push_back("topology differs from the reference in " +
                        std::to_string(topology.differences.size()) +
                        " place(s), first: " + topology.differences.front());
  }
  return v;
}

// Figures some other host measured "ok" that this host has not: lost to it.
std::size_t figures_missing(const HostRun& h, const std::vector<FigureSpread>& spreads) {
  std::set<std::string> own;
  for (const auto& f : h.figures) {
    if (f.status == doc::FigureStatus::kOk && f.value)
      own.insert(std::string(to_string(f.kind)) + " " + f.key());
  }
  std::size_t missing = 0;
  for (const auto& s : spreads)
    missing += own.count(std::string(to_string(s.figure.kind)) + " " + s.key) ? 0 : 1;
  return missing;
}

// Two records of one host name (one rank per GPU without --rank-per-gpu, a file given twice)
// stay two hosts: each keeps its source in its name, so figures and verdicts never mix.
std::vector<HostRun> with_unique_names(std::vector<HostRun> hosts) {
  std::map<std::string, int> seen;
  for (const auto& h : hosts) ++seen[h.name()];
  for (auto& h : hosts) {
    if (seen[h.name()] > 1) h.hostname = h.name() + " (" + h.source + ")";
  }
  return hosts;
}

}  // namespace

ClusterRun merge_hosts(const std::vector<HostRun>& given, const MergeOptions& options) {
  const std::vector<HostRun> hosts = with_unique_names(given);
  ClusterRun run;
  const FleetTopology fleet = judge_fleet_topology(hosts, options.golden, options.golden_source);
  run.topology_reference = fleet.reference;
  run.figures = fleet_spreads(hosts, options.outliers);

  std::map<std::string, std::size_t> worse;  // host -> worse-side outliers
  for (const auto& s : run.figures) {
    for (const auto& d : s.outliers) worse[d.host] += d.worse ? 1 : 0;
  }
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    HostVerdict v = describe_host(hosts[i], fleet.hosts[i], options.allowed_caveats);
    v.outliers_worse = worse[v.host];
    v.figures_lost = v.outliers_worse + figures_missing(hosts[i], run.figures);
    if (v.outliers_worse > 0)
      v.reasons.push_back(std::to_string(v.outliers_worse) +
                          " figure(s) far worse than the fleet's median");
    v.status = !hosts[i].ended     ? doc::HostStatus::kNoResult
               : v.reasons.empty() ? doc::HostStatus::kPass
                                   : doc::HostStatus::kFail;
    run.hosts.push_back(std::move(v));
  }

  if (hosts.empty()) run.gate_reasons.push_back("no host records to merge");
  if (fleet.ambiguous) run.gate_reasons.push_back("topology: " + fleet.reference);
  for (std::size_t i = 0; i < run.hosts.size(); ++i) {
    const HostVerdict& v = run.hosts[i];
    if (v.status == doc::HostStatus::kNoResult)
      run.gate_reasons.push_back(v.host + ": no result (" +
                                 (hosts[i].unreadable.empty()
                                      ? "last completed step: " + v.last_step
                                      : hosts[i].unreadable) +
                                 ")");
    if (v.gate_passed && !*v.gate_passed)
      run.gate_reasons.push_back(v.host + ": its own gate blocked");
    if (v.topology.match == doc::TopologyMatch::kDiffers)
      run.gate_reasons.push_back(v.host + ": pair classes differ from the " + fleet.reference);
  }
  run.gate_passed = run.gate_reasons.empty();
  run.passed =
      run.gate_passed && std::none_of(run.hosts.begin(), run.hosts.end(), [](const HostVerdict& v) {
        return v.status != doc::HostStatus::kPass;
      });
  std::stable_sort(run.hosts.begin(), run.hosts.end(),
                   [](const HostVerdict& a, const HostVerdict& b) {
                     if (a.figures_lost != b.figures_lost) return a.figures_lost > b.figures_lost;
                     return a.host < b.host;
                   });
  run.verdict = fleet_verdict(run, options.outliers, options.written_by);
  return run;
}

}  // namespace p2p::cluster
