// The options of `p2pcheck cluster` (cli/cluster_command.hpp describes the command), in every
// build: without MPI the command still parses them before saying how to get MPI.
#pragma once

#include <string>
#include <vector>

#include "cluster/fleet_outputs.hpp"
#include "cluster/node_chain.hpp"

namespace p2p::cluster {

struct ClusterOptions {
  NodeOptions node;
  std::vector<std::string> fixture_hosts;  // test only: rank N's host is the N-th
  FleetOutputOptions outputs;
  std::string lines_dir = "p2pcheck-lines";
  double deadline_s = 3600;
  bool rank_per_gpu = false;
};

}  // namespace p2p::cluster
