// `p2pcheck import FILE... [--json OUT]`: nvbandwidth, nccl-tests and p2pBandwidthLatencyTest
// outputs as a p2pcheck results document, for compare and report. No GPU, no CUDA.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.hpp"

namespace p2p::cli {

Command add_import_command(CLI::App& root);

}  // namespace p2p::cli
