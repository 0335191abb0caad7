// Registration with Google Benchmark: every (case, route, size) becomes one registered benchmark
// with manual (GPU event) time, one iteration per sample, bytes_per_second and counters, so
// --benchmark_filter, --benchmark_repetitions and --benchmark_format work as usual. A case
// that throws is reported with SkipWithError and the run continues with the next one.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>

#include "bench/measure/collector.hpp"
#include "bench/measure/context.hpp"
#include "bench/measure/run.hpp"
#include "bench/measure/selection.hpp"
#include "harness/google_benchmark.hpp"

namespace p2p::bench {

// Registers the benchmarks of every case over ctx.gpus (waived routes go straight into the
// collector). Returns how many were registered.
std::size_t register_benchmarks(std::shared_ptr<const BenchContext> ctx,
                                const BenchOptions& options, const harness::NameFilter& filter,
                                std::shared_ptr<Collector> collector);

// The progress line's figure for a finished bench benchmark: "12.34 GB/s" or "1190.2 ns".
std::string describe_bench_run(const benchmark::BenchmarkReporter::Run& run);

}  // namespace p2p::bench
