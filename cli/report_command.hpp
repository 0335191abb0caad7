// `p2pcheck report RESULTS.json [--html FILE.html]`: the results document of bench or nccl as a
// self-contained HTML page with heatmaps and size charts. Exit 0 written, 2 bad input.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_report_command(CLI::App& root);

}  // namespace p2p::cli
