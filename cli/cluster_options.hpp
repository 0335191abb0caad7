// The options of `p2pcheck cluster` (cli/cluster_command.hpp describes the command).
#pragma once

#include <string>
#include <vector>

#include "cli/fleet_outputs.hpp"
#include "cli/node_chain.hpp"

namespace p2p::cli {

struct ClusterOptions {
  NodeOptions node;
  std::vector<std::string> fixture_hosts;  // test only: rank N's host is the N-th
  FleetOutputOptions outputs;
  std::string lines_dir = "p2pcheck-lines";
  double deadline_s = 3600;
  bool rank_per_gpu = false;
};

}  // namespace p2p::cli
