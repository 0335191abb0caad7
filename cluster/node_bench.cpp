#include "cluster/node_bench.hpp"

#include "common/error.hpp"
#include "common/exit_codes.hpp"

#if P2P_WITH_BENCH
#include "bench/measure/host_memory.hpp"
#include "bench/measure/no_gpu.hpp"
#include "bench/measure/run.hpp"
#include "bench/measure/selection.hpp"
#include "bench/sizes.hpp"
#endif

namespace p2p::cluster {
namespace {

// The same rule as bench::exit_code_for, from the counts (which need no CUDA).
int exit_code_of(const bench::FigureCounts& c) {
  if (c.failed > 0) return kExitFailed;
  if (c.errors > 0) return kExitRuntime;
  return kExitOk;
}

}  // namespace

NodeBenchResult replay_figures(const bench::BenchDocument& doc, const FigureSink& emit) {
  for (const auto& f : doc.bandwidth) emit(nlohmann::json(f));
  for (const auto& f : doc.latency) emit(nlohmann::json(f));
  NodeBenchResult r;
  r.counts = bench::count_figures(doc);
  r.exit_code = exit_code_of(r.counts);
  return r;
}

#if P2P_WITH_BENCH

NodeBenchResult run_live_bench(const NodeBenchOptions& o, const topo::TopologySnapshot& t,
                               const topo::GateDecision& gate, bool skip_gate,
                               const FigureSink& emit, std::ostream& progress) {
  bench::BenchOptions opts;
  if (!o.gpus.empty()) opts.gpus = bench::parse_gpu_list(o.gpus);
  if (!o.sizes.empty()) opts.sizes_bytes = bench::parse_size_list(o.sizes);
  opts.full_sweep =
      o.full || !o.sizes.empty();  // as bench: sizes asked for by name are measured everywhere
  opts.measure.samples = o.samples;
  opts.measure.warmup_samples = o.warmup_samples;
  opts.measure.copies_per_batch = o.copies;
  opts.cpu_affinity = !o.no_affinity;
  opts.logical_gpus = o.logical_gpus;
  opts.measure.host_memory = *bench::host_memory_from_string(o.host_memory);  // checked by CLI11
  opts.on_figure = emit;
  bench::require_usable_gpus();  // NoGpuError: the step fails with exit 3
  bench::GateRecord record;
  record.decision = gate.passed ? "pass" : "block";
  record.reasons = gate;
  record.detail = gate.passed ? "passed" : std::to_string(gate.blocking()) + " blocking reason(s)";
  const bench::BenchOutcome outcome =
      bench::run_bench(opts, bench::BenchInputs{t, record, skip_gate}, progress);
  NodeBenchResult r;
  r.counts = bench::count_figures(outcome.document);
  r.exit_code = bench::exit_code_for(outcome.document);
  return r;
}

#else

NodeBenchResult run_live_bench(const NodeBenchOptions&, const topo::TopologySnapshot&,
                               const topo::GateDecision&, bool, const FigureSink&, std::ostream&) {
  throw NoGpuError("this p2pcheck was built without CUDA: the bench step cannot measure");
}

#endif

}  // namespace p2p::cluster
