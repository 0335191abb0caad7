// The sweep request (session/bench_sweep.hpp) as bench::BenchOptions, the one place both
// `bench` and the node chain's bench step build them. CUDA builds only (bench/ is CUDA).
#pragma once

#include "bench/measure/run.hpp"
#include "session/bench_sweep.hpp"

namespace p2p::session {

// InputError naming --gpus or --sizes when its list cannot be read. Sizes asked for by name are
// measured for every route, as --full does.
bench::BenchOptions bench_options_for(const BenchSweepRequest& r);

}  // namespace p2p::session
