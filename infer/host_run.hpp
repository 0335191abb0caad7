// The measuring half of `p2pcheck infer`: built with NCCL (host_run.cpp), a stub that says so
// and exits 3 elsewhere (host_run_stub.cpp).
#pragma once

#include "infer/plan.hpp"
#include "infer/run_options.hpp"

namespace p2p::infer {

// Measures the plan on this host and prints/writes the results; the exit code.
int run_infer(const InferOptions& o, const InferPlan& plan);

}  // namespace p2p::infer
