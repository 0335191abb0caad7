// The end every fleet run shares, `merge` over files and `cluster` over MPI: one merge of the
// hosts' records, the text for people on stdout, the cluster document (--json) and JUnit
// (--junit) written atomically. Options and files are read before any work starts.
#pragma once

#include <string>
#include <vector>

#include "cluster/host_lines.hpp"
#include "cluster/merge.hpp"

namespace p2p::cluster {

struct FleetOutputOptions {
  std::string golden;  // topology snapshot (or hwloc XML) every host must match
  std::string json;    // cluster document
  std::string junit;
  double z_threshold = 3.5;
};

// The golden topology read now (InputError for a bad file), and the outlier rule.
MergeOptions read_merge_options(const FleetOutputOptions& o);

// Merges, prints, writes; returns the fleet's exit code (0 every host passed, 1 otherwise).
int report_fleet(const std::vector<HostRun>& hosts, const MergeOptions& merge,
                 const FleetOutputOptions& o, const std::string& written_by, int ranks);

// `merge`: every host's node lines read from its file (InputError naming the file and line of
// the first bad one, before anything is written), then report_fleet.
int merge_host_files(const std::vector<std::string>& files, const FleetOutputOptions& o);

}  // namespace p2p::cluster
