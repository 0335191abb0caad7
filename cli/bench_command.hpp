// `p2pcheck bench`: bandwidth and latency of every GPU pair and every GPU's host link, every
// transfer verified. Options are declared here; the work happens in the returned `run`.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.hpp"

namespace p2p::cli {

Command add_bench_command(CLI::App& root);

}  // namespace p2p::cli
