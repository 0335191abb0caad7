// `p2pcheck hw list` and `p2pcheck hw show MODEL`: the hardware knowledge base every verdict
// uses (hardware/), each fact with its source, and the floors derived from published figures.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_hw_command(CLI::App& root);

}  // namespace p2p::cli
