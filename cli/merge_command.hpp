// `p2pcheck merge FILES...`: many hosts' node lines -> the fleet verdict (cluster/merge.hpp),
// the hosts ranked by figures lost, the fleet outliers, the cluster document and JUnit.
// Exit 0 every host passed and the fleet gate passed; 1 otherwise (a host failed, differs, is
// an outlier or has no result); 2 bad input (a missing or malformed file, named with its line).
#pragma once

#include "cli/command.hpp"
#include "cluster/fleet_outputs.hpp"
#include "common/output_paths.hpp"

namespace p2p::cli {

// The fleet's options (--expect, --json, --junit, --z-threshold), shared with `cluster`, where
// the node's own --expect is the fleet's too (`expect_is_the_nodes`). The old --golden still
// works, with a deprecation line.
void add_fleet_output_options(CLI::App* app, cluster::FleetOutputOptions& o,
                              bool expect_is_the_nodes);
// Those options as the output policy reads them (common/output_paths.hpp).
OutputRequest fleet_output_paths(const cluster::FleetOutputOptions& o);

Command add_merge_command(CLI::App& root);

}  // namespace p2p::cli
