#include "cluster/fleet_outputs.hpp"

#include <iostream>

#include "cluster/cluster_junit.hpp"
#include "cluster/cluster_text.hpp"
#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
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
  for (const auto& word : o.allow_caveats)
    m.allowed_caveats.insert(doc::caveat_from_string(word, "--allow-caveat"));
  return m;
}

int report_fleet(const std::vector<HostRun>& hosts, MergeOptions merge, const FleetOutputOptions& o,
                 const std::string& written_by, int ranks) {
  merge.written_by = written_by;
  doc::ClusterDocument d;
  d.run = merge_hosts(hosts, merge);
  d.written_by = written_by;
  d.tool_version = P2P_VERSION;
  d.created_utc = utc_now_iso8601();
  d.ranks = ranks;
  d.outlier_rule = merge.outliers;
  // An output on standard output takes it: the text for people goes to stderr then.
  std::ostream& text = o.json == "-" || o.junit == "-" ? std::cerr : std::cout;
  text << format_cluster_text(d.run, merge.outliers, written_by) << std::flush;
  // Through the lossless writer: host names and notes are bytes a host reported.
  // Replaced together: never a new fleet document beside an old test report.
  write_text_files_atomically(
      {{o.json, o.json.empty() ? "" : json_text(nlohmann::json(d)) + "\n"},
       session::junit_file(o.junit, {cluster_suite(d.run, d.created_utc)})});
  return d.run.exit_code();
}

int merge_host_files(const std::vector<std::string>& files, const FleetOutputOptions& o) {
  const MergeOptions merge = read_merge_options(o);
  return report_fleet(read_host_files(files), merge, o, "merge", 0);
}

}  // namespace p2p::cluster
