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

// The document judged with the default acceptance policy, as bench judges its own.
NodeBenchResult judged(const doc::BenchDocument& d) {
  const doc::RunVerdict v = accept::judge_document(d, accept::AcceptancePolicy{}, {}, "node");
  NodeBenchResult r;
  r.counts = doc::count_figures(d);
  r.exit_code = doc::exit_code(v);
  r.caveats = v.caveats;
  const auto reasons = v.reasons();
  if (r.exit_code != kExitOk && !reasons.empty())
    r.first_reason =
        reasons.front().rule + " " + reasons.front().subject + ": " + reasons.front().message;
  return r;
}

}  // namespace

NodeBenchResult replay_figures(const doc::BenchDocument& doc, const FigureSink& emit) {
  for (const auto& f : doc.bandwidth) emit(nlohmann::json(f));
  for (const auto& f : doc.latency) emit(nlohmann::json(f));
  return judged(doc);
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
  return judged(outcome.document);
}

#else

NodeBenchResult run_live_bench(const session::BenchSweepRequest&, const topo::TopologySnapshot&,
                               const topo::GateDecision&, bool, const FigureSink&, std::ostream&) {
  throw NoGpuError("this p2pcheck was built without CUDA: the bench step cannot measure");
}

#endif

}  // namespace p2p::cluster
