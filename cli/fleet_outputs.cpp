#include "cli/fleet_outputs.hpp"

#include <iostream>

#include "cli/machine_outputs.hpp"
#include "cluster/cluster_document.hpp"
#include "cluster/cluster_junit.hpp"
#include "cluster/cluster_text.hpp"
#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/utc_time.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::cli {

void add_fleet_output_options(CLI::App* app, FleetOutputOptions& o) {
  app->add_option("--golden", o.golden,
                  "Topology every host must match (snapshot or hwloc XML); default: the topology most hosts have")
      ->type_name("FILE");
  app->add_option("--json", o.json, "Write the cluster document (p2pcheck.cluster.run) to FILE (atomically; - for stdout)")
      ->type_name("FILE|-");
  add_junit_option(app, o.junit);
  app->add_option("--z-threshold", o.z_threshold,
                  "Flag a host whose figure lies beyond this modified z-score from the fleet's median (default 3.5)")
      ->check(CLI::Range(1.0, 100.0));
}

cluster::MergeOptions read_merge_options(const FleetOutputOptions& o) {
  cluster::MergeOptions m;
  if (!o.golden.empty()) {
    m.golden = topo::load_topology(o.golden);
    m.golden_source = o.golden;
  }
  m.outliers.z_threshold = o.z_threshold;
  return m;
}

int report_fleet(const std::vector<cluster::HostRun>& hosts, const cluster::MergeOptions& merge,
                 const FleetOutputOptions& o, const std::string& written_by, int ranks) {
  const cluster::ClusterRun run = cluster::merge_hosts(hosts, merge);
  const std::string now = utc_now_iso8601();
  std::ostream& text = o.json == "-" ? std::cerr : std::cout;
  text << cluster::format_cluster_text(run, merge.outliers) << std::flush;
  if (!o.json.empty()) {
    const nlohmann::json doc = cluster::cluster_document(run, merge.outliers, {written_by, P2P_VERSION, now, ranks});
    write_text_file_atomically(o.json, doc.dump(2) + "\n");
  }
  write_junit(o.junit, {cluster::cluster_suite(run, now)});
  return run.exit_code();
}

}  // namespace p2p::cli
