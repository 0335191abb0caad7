// `p2pcheck compare BASELINE RUN`: which figures of a bench run moved against a baseline run
// (a run vs last week's, the VFIO VM vs the LXC container). Exit 0 nothing regressed, 1 a
// figure regressed or was lost, 2 bad input.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_compare_command(CLI::App& root);

}  // namespace p2p::cli
