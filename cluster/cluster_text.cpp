#include "cluster/cluster_text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/text.hpp"

namespace p2p::cluster {
namespace {

constexpr std::size_t kDifferencesShown = 4;

std::string status_label(const HostVerdict& v) {
  switch (v.status) {
    case doc::HostStatus::kPass: return "pass";
    case doc::HostStatus::kFail: return "FAIL";
    case doc::HostStatus::kNoResult: return "NO RESULT";
  }
  return "?";
}

std::string gate_label(const HostVerdict& v) {
  if (!v.gate_passed) return "-";
  return *v.gate_passed ? "pass" : "block";
}

void host_table(std::ostream& out, const ClusterRun& run) {
  std::size_t width = 4;
  for (const auto& v : run.hosts) width = std::max(width, v.host.size());
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %-9s  %5s  %7s  %-5s  %-8s  %s\n",
                static_cast<int>(width), "HOST", "STATUS", "LOST", "FIGURES", "GATE", "TOPOLOGY",
                "LAST STEP");
  out << line;
  for (const auto& v : run.hosts) {
    std::snprintf(line, sizeof line, "%-*s  %-9s  %5zu  %7zu  %-5s  %-8s  %s\n",
                  static_cast<int>(width), v.host.c_str(), status_label(v).c_str(), v.figures_lost,
                  v.figures_ok, gate_label(v).c_str(), to_string(v.topology.match),
                  v.last_step.c_str());
    out << line;
    if (v.status == doc::HostStatus::kPass) continue;
    if (v.root_cause.empty()) {
      out << "    doctor: did not run\n";
    } else {
      out << "    doctor (" << v.doctor_state << "): " << v.root_cause << "\n";
    }
    for (const auto& r : v.reasons) out << "    - " << r << "\n";
  }
}

void odd_topologies(std::ostream& out, const ClusterRun& run) {
  bool any = false;
  for (const auto& v : run.hosts) {
    if (v.topology.match != doc::TopologyMatch::kDiffers) continue;
    if (!any)
      out << "\nHosts whose pair classes differ from the " << run.topology_reference << ":\n";
    any = true;
    out << "  " << v.host << ": " << v.topology.differences.size() << " difference(s)\n";
    const std::size_t shown = std::min(v.topology.differences.size(), kDifferencesShown);
    for (std::size_t i = 0; i < shown; ++i) out << "    " << v.topology.differences[i] << "\n";
    if (shown < v.topology.differences.size())
      out << "    ... and " << v.topology.differences.size() - shown
          << " more (--json has them all)\n";
  }
}

void outlier_table(std::ostream& out, const ClusterRun& run, const OutlierOptions& rule) {
  std::size_t flagged = 0, judged = 0;
  for (const auto& s : run.figures) {
    judged += s.judged ? 1 : 0;
    flagged += s.outliers.empty() ? 0 : 1;
  }
  out << "\nFleet outliers (modified z-score beyond " << four_digits(rule.z_threshold)
      << "): " << flagged << " of " << judged << " figure(s) measured on at least "
      << rule.min_hosts << " hosts\n";
  for (const auto& s : run.figures) {
    for (const auto& d : s.outliers) {
      out << "  " << to_string(s.figure.kind) << " " << s.key << ": " << d.host << " "
          << four_digits(d.value) << " " << s.figure.unit() << " vs median "
          << four_digits(s.median) << " (" << (d.delta_pct >= 0 ? "+" : "")
          << four_digits(d.delta_pct) << "%, z " << four_digits(d.z)
          << (d.worse ? ", worse" : ", better") << ")\n";
    }
  }
}

}  // namespace

std::string format_cluster_text(const ClusterRun& run, const OutlierOptions& rule,
                                const std::string& command) {
  std::ostringstream out;
  std::size_t pass = 0, fail = 0, missing = 0;
  for (const auto& v : run.hosts) {
    pass += v.status == doc::HostStatus::kPass;
    fail += v.status == doc::HostStatus::kFail;
    missing += v.status == doc::HostStatus::kNoResult;
  }
  out << "Cluster: " << run.hosts.size() << " host(s): " << pass << " pass, " << fail << " fail, "
      << missing << " without a result\nTopology reference: " << run.topology_reference << "\n\n";
  host_table(out, run);
  odd_topologies(out, run);
  outlier_table(out, run, rule);
  out << "\nFleet gate: " << (run.gate_passed ? "pass" : "BLOCKED") << "\n";
  for (const auto& r : run.gate_reasons) out << "  - " << r << "\n";
  out << "\n" << doc::format_verdict(run.verdict, command);
  return out.str();
}

}  // namespace p2p::cluster
