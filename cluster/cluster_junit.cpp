#include "cluster/cluster_junit.hpp"

#include "report/markup_text.hpp"

namespace p2p::cluster {
namespace {

// "fleet/gate", "fleet/host/node-a", "fleet/bandwidth/ce_unidir_write gpu0->gpu1 64MiB".
std::string case_name(const doc::Check& c) {
  if (c.rule == "fleet_gate") return "fleet/gate";
  if (c.rule == "host") return "fleet/host/" + c.subject;
  return c.subject == "fleet" ? "fleet/figures" : "fleet/" + c.subject;
}

}  // namespace

report::CheckSuite cluster_suite(const ClusterRun& run, const std::string& timestamp) {
  report::CheckSuite suite{"cluster", "fleet", timestamp, {}, {}};
  suite.properties.emplace_back("p2pcheck.verdict", headline(run.verdict));
  for (const auto& check : run.verdict.checks) {
    report::CheckCase c;
    c.name = case_name(check);
    c.classname =
        check.rule == "fleet_gate" ? "p2pcheck.cluster.gate" : "p2pcheck.cluster." + check.rule;
    c.outcome = check.outcome;
    c.message = report::single_line(check.message);
    suite.cases.push_back(std::move(c));
  }
  return suite;
}

}  // namespace p2p::cluster
