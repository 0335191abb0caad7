// `p2pcheck node`: one host's part of a fleet run. Runs doctor -> topo -> gate -> bench (the
// bench options are bench's) and writes every item as a JSON line to --jsonl as it happens;
// `p2pcheck merge` reads those files of many hosts. Exit code: the worst step's (0 ok; 1 doctor
// failed, no GPU seen, the gate blocked or a figure failed verification; 2 bad input; 3 bench
// found no usable GPU; 4 a runtime failure).
#pragma once

#include "cli/command.hpp"
#include "cluster/node_chain.hpp"

namespace p2p::cli {

// The node chain's options, shared with `cluster`.
void add_node_options(CLI::App* app, cluster::NodeOptions& o);

Command add_node_command(CLI::App& root);

}  // namespace p2p::cli
