// `p2pcheck judge DOCUMENT [--policy FILE]`: the acceptance verdict of a kept bench or nccl
// document under a policy, without a GPU. Exit 0 pass, 1 fail, 2 bad input, 4 a check could not
// be made.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_judge_command(CLI::App& root);

}  // namespace p2p::cli
