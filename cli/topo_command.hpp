// `p2pcheck topo`: discover (or read) the GPU topology and print it; `topo diff A B`.
#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "session/topo_run.hpp"

namespace p2p::cli {

struct TopoOptions {
  session::TopoRequest request;  // --input, --p2p, --environment, --save
  std::string format = "text";
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
