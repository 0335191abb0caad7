// `p2pcheck bench` without the command line: build the context, turn every (case, route,
// size) into a Google Benchmark, run them with a progress line, and collect the records into
// the results document. The topology snapshot and the gate decision come from the caller.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench/measure/context.hpp"
#include "bench/measure/measure.hpp"
#include "document/bench_document.hpp"
#include "topology/snapshot.hpp"

namespace p2p::bench {

struct BenchOptions {
  std::vector<int> gpus;  // requested CUDA ordinals; empty = all
  // > 0: that many logical GPUs placed round-robin on the selected devices (placement.hpp).
  int logical_gpus = 0;
  std::vector<std::uint64_t> sizes_bytes;  // empty = default_sweep_bytes()
  // Every route at every size; else one route per kind of path is swept and the others are
  // measured at the largest size (sweep_plan.hpp).
  bool full_sweep = false;
  MeasureOptions measure;  // samples, warm-up, batch length, SM shape
  bool cpu_affinity = true;
  std::vector<std::string> benchmark_args;  // "--benchmark_*=..." passed to Google Benchmark
  // Called with each figure's record as it finishes (waived figures as they are found).
  std::function<void(const nlohmann::json& figure)> on_figure;
};

struct BenchInputs {
  topo::TopologySnapshot topology;
  doc::GateRecord gate;
  bool skip_gate = false;
};

struct BenchOutcome {
  doc::BenchDocument document;
  // True when --benchmark_format was given: Google Benchmark then writes its own report to
  // stdout and the matrix tables must go elsewhere.
  bool benchmark_owns_stdout = false;
};

// The part of the results document every measuring subcommand fills alike: tool version,
// start time (kept when already set), host, driver and CUDA versions, environment, topology,
// gate, and the GPUs of ctx.gpus with their links and peer access. Needs the CUDA runtime.
void describe_run_host(doc::BenchDocument& doc, const BenchContext& ctx, const BenchInputs& inputs);

// Requires a usable GPU (call require_usable_gpus() first for the one-line no-GPU error).
BenchOutcome run_bench(const BenchOptions& options, const BenchInputs& inputs,
                       std::ostream& progress);

}  // namespace p2p::bench
