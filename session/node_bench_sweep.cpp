// The node chain's bench step on this host: bench's own options and measurement, with the
// topology and gate decision the chain has made (session/bench_session.hpp).
#include "bench/measure/no_gpu.hpp"
#include "bench/measure/run.hpp"
#include "session/bench_options.hpp"
#include "session/bench_session.hpp"
#include "session/gate_verdict.hpp"

namespace p2p::session {

doc::BenchDocument measure_for_node(const BenchSweepRequest& o, const topo::TopologySnapshot& t,
                                    const topo::GateDecision& gate, bool skip_gate,
                                    const std::function<void(const nlohmann::json&)>& on_figure,
                                    std::ostream& progress) {
  bench::BenchOptions opts = bench_options_for(o);  // as bench builds them
  opts.on_figure = on_figure;
  bench::require_usable_gpus();  // NoGpuError: the step fails with exit 3
  return bench::run_bench(opts, bench::BenchInputs{t, gate_record(gate, skip_gate), skip_gate},
                          progress)
      .document;
}

}  // namespace p2p::session
