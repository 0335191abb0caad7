// Every subcommand's registration function; add_all_commands keeps the order of `--help`.
#pragma once

#include <vector>

#include "cli/command.hpp"

namespace p2p::cli {

std::vector<Command> add_all_commands(CLI::App& root);

}  // namespace p2p::cli
