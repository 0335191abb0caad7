// The measuring half of `p2pcheck infer` (and its hidden rank subcommand): built with NCCL, a
// stub that exits 3 elsewhere.
#pragma once

#include "cli/infer_command.hpp"
#include "infer/plan.hpp"

namespace p2p::cli {

// The plan from the options: --model or --hidden, the lists checked. InputError otherwise.
infer::InferPlan infer_plan(const InferCommandOptions& o);

// Measures the plan on this host and prints/writes the results; the exit code.
int run_infer(const InferCommandOptions& o, const infer::InferPlan& plan);

}  // namespace p2p::cli
