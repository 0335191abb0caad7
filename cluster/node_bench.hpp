// The bench step of the node chain: today's bench options, measured on this host (a CUDA build)
// or, for a fixture host, the figures of its results document replayed. Each figure goes out as
// it finishes through `emit`.
#pragma once

#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "document/verdict.hpp"
#include "session/bench_sweep.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

struct NodeBenchResult {
  // The acceptance verdict's (document/verdict.hpp exit_code): 0 pass, 1 a figure or the run
  // failed (a verification, a floor, a shared GPU), 4 a case hit an error.
  int exit_code = 0;
  doc::FigureCounts counts;
  std::vector<doc::Caveat> caveats;  // of that verdict: they go into the node's verdict
  std::string first_reason;          // where it did not pass: the verdict's most important reason
};

using FigureSink = std::function<void(const nlohmann::json& figure)>;

// Measures this host. NoGpuError when it has no usable GPU or p2pcheck was built without CUDA.
NodeBenchResult run_live_bench(const session::BenchSweepRequest& o, const topo::TopologySnapshot& t,
                               const topo::GateDecision& gate, bool skip_gate,
                               const FigureSink& emit, std::ostream& progress);

// The figures a document holds, bandwidth then latency, each through `emit`, judged as bench
// judges the document it has just written.
NodeBenchResult replay_figures(const doc::BenchDocument& doc, const FigureSink& emit);

}  // namespace p2p::cluster
