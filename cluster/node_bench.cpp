#include "cluster/node_bench.hpp"

#include "acceptance/judge.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "session/bench_session.hpp"

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

NodeBenchResult run_live_bench(const session::BenchSweepRequest& o, const topo::TopologySnapshot& t,
                               const topo::GateDecision& gate, bool skip_gate,
                               const FigureSink& emit, std::ostream& progress) {
  return judged(session::measure_for_node(o, t, gate, skip_gate, emit, progress));
}

}  // namespace p2p::cluster
