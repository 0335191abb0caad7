// `p2pcheck bench` on this host, from the request to the exit code: the flags handed to Google
// Benchmark before any GPU work, the cuInit preflight, the gate, the sharing check around the
// measurement, the tables, the results document, JUnit and JSON lines, and the exit policy
// (session/run_verdict.hpp). In a build without CUDA both functions throw NoGpuError.
#pragma once

#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "session/bench_request.hpp"
#include "session/bench_sweep.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot.hpp"

namespace p2p::session {

struct BenchCaseLine {
  std::string name;
  std::string what;
};

// Every benchmark case, for `bench --list`.
std::vector<BenchCaseLine> bench_cases();

// Runs the request (not --list) and returns the exit code; errors that end the run early
// propagate as the exceptions main maps to exit codes.
int run_bench_session(const BenchRequest& r);

// The bench step of the node chain (`node`, `cluster`): the sweep `o` measured on this host,
// whose topology and gate decision the chain has already made, each figure handed to `on_figure`
// as it finishes. NoGpuError when the host has no usable GPU.
doc::BenchDocument measure_for_node(const BenchSweepRequest& o, const topo::TopologySnapshot& t,
                                    const topo::GateDecision& gate, bool skip_gate,
                                    const std::function<void(const nlohmann::json&)>& on_figure,
                                    std::ostream& progress);

}  // namespace p2p::session
