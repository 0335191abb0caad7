// `p2pcheck export DOC --to junit|prometheus`: a results document (bench/nccl --json), a gate
// decision (gate --format json) or a doctor report (doctor --format json) as JUnit XML for CI,
// or as a Prometheus textfile for node_exporter. Needs no GPU. Exit 0, or 2 on bad input.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_export_command(CLI::App& root);

}  // namespace p2p::cli
