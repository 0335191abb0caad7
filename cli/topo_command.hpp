// `p2pcheck topo`: discover (or read) the GPU topology and print it; `topo diff A B`.
#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"

namespace p2p::cli {

struct TopoOptions {
  std::string input;  // hwloc XML, snapshot JSON or nvidia-smi topo -m capture; "" = this host
  std::string p2p;    // nvidia-smi topo -p2p capture to add to the snapshot
  std::string environment;  // EnvironmentFacts JSON recorded where the XML was captured
  std::string format = "text";
  std::string save;  // write the snapshot JSON here (atomically)
};

struct TopoDiffOptions {
  std::vector<std::string> inputs;  // exactly two
  std::string format = "text";
};

int run_topo_command(const TopoOptions& opts);
// 0 same topology, 1 different, (2 bad input, through InputError).
int run_topo_diff_command(const TopoDiffOptions& opts);

Command add_topo_command(CLI::App& root);

}  // namespace p2p::cli
