// `p2pcheck doctor`: collect facts about this host (or read a saved facts file), run the
// checks, print the checklist and the verdict. Exit 0 when no check failed, 1 when one did,
// 2 on bad input.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.hpp"

namespace p2p::cli {

Command add_doctor_command(CLI::App& root);

}  // namespace p2p::cli
