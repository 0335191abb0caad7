// `p2pcheck check --quick`: the node health check for schedulers and monitoring (a Slurm
// HealthCheckProgram, an NHC check, a node-problem-detector plugin): doctor, topology and gate,
// no benchmark, in seconds. Exit code: the worst of the three (0 healthy; 1 a check failed, the
// gate blocked or no GPU is there; 2 bad input; 4 an unexpected failure); the last line of
// stdout says why.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_check_command(CLI::App& root);

}  // namespace p2p::cli
