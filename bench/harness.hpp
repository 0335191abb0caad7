// Google Benchmark as the harness: every (case, route, size) becomes one registered benchmark
// with manual (GPU event) time, one iteration per sample, bytes_per_second and counters, so
// --benchmark_filter, --benchmark_repetitions and --benchmark_format work as usual. A case
// that throws is reported with SkipWithError and the run continues with the next one.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <iosfwd>
#include <memory>

#include "bench/collector.hpp"
#include "bench/context.hpp"
#include "bench/run.hpp"
#include "bench/selection.hpp"

namespace p2p::bench {

// Registers the benchmarks of every case over ctx.gpus (waived routes go straight into the
// collector). Returns how many were registered.
std::size_t register_benchmarks(std::shared_ptr<const BenchContext> ctx, const BenchOptions& options,
                                const NameFilter& filter, std::shared_ptr<Collector> collector);

// One line per finished benchmark on `out` (rewritten in place on a terminal).
class ProgressReporter : public benchmark::BenchmarkReporter {
 public:
  ProgressReporter(std::ostream& out, std::size_t total, bool terminal);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  std::ostream& out_;
  std::size_t total_;
  std::size_t done_ = 0;
  bool terminal_;
};

}  // namespace p2p::bench
