#include "cluster/node_bench.hpp"

#include "acceptance/judge.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"

#if P2P_WITH_BENCH
#include "bench/measure/no_gpu.hpp"
#include "bench/measure/run.hpp"
#include "session/bench_options.hpp"
#endif

namespace p2p::cluster {
namespace {

// The same rule as bench::exit_code_for, from the counts (which need no CUDA).
int exit_code_of(const doc::FigureCounts& c) {
  if (c.failed > 0) return kExitFailed;
  if (c.errors > 0) return kExitRuntime;
  return kExitOk;
}

}  // namespace

NodeBenchResult replay_figures(const doc::BenchDocument& doc, const FigureSink& emit) {
  for (const auto& f : doc.bandwidth) emit(nlohmann::json(f));
  for (const auto& f : doc.latency) emit(nlohmann::json(f));
  NodeBenchResult r;
  r.counts = doc::count_figures(doc);
  r.exit_code = exit_code_of(r.counts);
  return r;
}

#if P2P_WITH_BENCH

NodeBenchResult run_live_bench(const session::BenchSweepRequest& o, const topo::TopologySnapshot& t,
                               const topo::GateDecision& gate, bool skip_gate,
                               const FigureSink& emit, std::ostream& progress) {
  bench::BenchOptions opts = session::bench_options_for(o);  // as bench builds them
  opts.on_figure = emit;
  bench::require_usable_gpus();  // NoGpuError: the step fails with exit 3
  doc::GateRecord record;
  record.decision = gate.passed ? topo::GateVerdict::kPass : topo::GateVerdict::kBlock;
  record.reasons = gate;
  record.detail = gate.passed ? "passed" : std::to_string(gate.blocking()) + " blocking reason(s)";
  const bench::BenchOutcome outcome =
      bench::run_bench(opts, bench::BenchInputs{t, record, skip_gate}, progress);
  NodeBenchResult r;
  r.counts = doc::count_figures(outcome.document);
  r.exit_code = doc::exit_code(
      accept::judge_document(outcome.document, accept::AcceptancePolicy{}, {}, "node"));
  return r;
}

#else

NodeBenchResult run_live_bench(const session::BenchSweepRequest&, const topo::TopologySnapshot&,
                               const topo::GateDecision&, bool, const FigureSink&, std::ostream&) {
  throw NoGpuError("this p2pcheck was built without CUDA: the bench step cannot measure");
}

#endif

}  // namespace p2p::cluster
