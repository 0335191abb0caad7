#include "cluster/cluster_junit.hpp"

#include <cstdio>

#include "common/text.hpp"
#include "report/markup_text.hpp"

namespace p2p::cluster {
namespace {

report::CheckCase host_case(const HostVerdict& v) {
  report::CheckCase c;
  c.name = "fleet/host/" + v.host;
  c.classname = "p2pcheck.cluster.host";
  if (v.status == "pass") {
    c.outcome = doc::Outcome::kPass;
    c.message = std::to_string(v.figures_ok) + " figure(s), topology " + v.topology.match;
  } else {
    c.outcome = v.status == "no_result" ? doc::Outcome::kError : doc::Outcome::kFail;
    c.message = join(v.reasons, "; ");
    if (!v.root_cause.empty()) c.message += " (doctor: " + v.root_cause + ")";
  }
  c.message = report::single_line(c.message);
  return c;
}

report::CheckCase figure_case(const FigureSpread& s) {
  report::CheckCase c;
  c.name = "fleet/" + s.figure.kind + "/" + s.key;
  c.classname = "p2pcheck.cluster." + s.figure.case_name;
  char median[64];
  std::snprintf(median, sizeof median, "median %.4g %s over %zu hosts", s.median, s.figure.unit(),
                s.hosts);
  c.message = median;
  for (const auto& d : s.outliers) {
    char b[160];
    std::snprintf(b, sizeof b, "; %s %.4g (%+.3g%%, z %.3g)", d.host.c_str(), d.value, d.delta_pct,
                  d.z);
    c.message += b;
    if (d.worse) c.outcome = doc::Outcome::kFail;
  }
  c.message = report::single_line(c.message);
  return c;
}

}  // namespace

report::CheckSuite cluster_suite(const ClusterRun& run, const std::string& timestamp) {
  report::CheckSuite suite{"cluster", "fleet", timestamp, {}};
  report::CheckCase gate;
  gate.name = "fleet/gate";
  gate.classname = "p2pcheck.cluster.gate";
  gate.outcome = run.gate_passed ? doc::Outcome::kPass : doc::Outcome::kFail;
  gate.message =
      report::single_line(run.gate_passed ? "topology reference: " + run.topology_reference
                                          : join(run.gate_reasons, "; "));
  suite.cases.push_back(gate);
  for (const auto& v : run.hosts) suite.cases.push_back(host_case(v));
  for (const auto& s : run.figures) {
    if (s.judged) suite.cases.push_back(figure_case(s));
  }
  return suite;
}

}  // namespace p2p::cluster
