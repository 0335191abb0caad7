// `p2pcheck export DOC --junit FILE --prom FILE`: a results document (bench/nccl --json), a gate
// decision (gate --format json) or a doctor report (doctor --format json) as JUnit XML for CI,
// and/or as a Prometheus textfile for node_exporter. Needs no GPU. Exit 0, or 2 on bad input.
// The old `--to junit|prometheus --out FILE` still works, with a deprecation line.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_export_command(CLI::App& root);

}  // namespace p2p::cli
