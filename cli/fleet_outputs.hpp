// The end every fleet run shares, `merge` over files and `cluster` over MPI: one merge of the
// hosts' records, the text for people on stdout, the cluster document (--json) and JUnit
// (--junit) written atomically. Options and files are read before any work starts.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cluster/host_lines.hpp"
#include "cluster/merge.hpp"

namespace p2p::cli {

struct FleetOutputOptions {
  std::string golden;  // topology snapshot (or hwloc XML) every host must match
  std::string json;    // cluster document
  std::string junit;
  double z_threshold = 3.5;
};

void add_fleet_output_options(CLI::App* app, FleetOutputOptions& o);

// The golden topology read now (InputError for a bad file), and the outlier rule.
cluster::MergeOptions read_merge_options(const FleetOutputOptions& o);

// Merges, prints, writes; returns the fleet's exit code (0 every host passed, 1 otherwise).
int report_fleet(const std::vector<cluster::HostRun>& hosts, const cluster::MergeOptions& merge,
                 const FleetOutputOptions& o, const std::string& written_by, int ranks);

}  // namespace p2p::cli
