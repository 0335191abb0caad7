#include "cluster/fleet_outputs.hpp"

#include <iostream>

#include "cluster/cluster_document.hpp"
#include "cluster/cluster_junit.hpp"
#include "cluster/cluster_text.hpp"
#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/utc_time.hpp"
#include "session/machine_outputs.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::cluster {

MergeOptions read_merge_options(const FleetOutputOptions& o) {
  MergeOptions m;
  if (!o.golden.empty()) {
    m.golden = topo::load_topology(o.golden);
    m.golden_source = o.golden;
  }
  m.outliers.z_threshold = o.z_threshold;
  return m;
}

int report_fleet(const std::vector<HostRun>& hosts, const MergeOptions& merge,
                 const FleetOutputOptions& o, const std::string& written_by, int ranks) {
  const ClusterRun run = merge_hosts(hosts, merge);
  const std::string now = utc_now_iso8601();
  // An output on standard output takes it: the text for people goes to stderr then.
  std::ostream& text = o.json == "-" || o.junit == "-" ? std::cerr : std::cout;
  text << format_cluster_text(run, merge.outliers) << std::flush;
  if (!o.json.empty()) {
    const nlohmann::json doc =
        cluster_document(run, merge.outliers, {written_by, P2P_VERSION, now, ranks});
    write_text_file_atomically(o.json, doc.dump(2) + "\n");
  }
  session::write_junit(o.junit, {cluster_suite(run, now)});
  return run.exit_code();
}

int merge_host_files(const std::vector<std::string>& files, const FleetOutputOptions& o) {
  const MergeOptions merge = read_merge_options(o);
  return report_fleet(read_host_files(files), merge, o, "merge", 0);
}

}  // namespace p2p::cluster
