// `p2pcheck bench` on this host, from the request to the exit code: the flags handed to Google
// Benchmark before any GPU work, the cuInit preflight, the gate, the sharing check around the
// measurement, the tables, the results document, JUnit and JSON lines, and the exit policy
// (session/run_verdict.hpp). In a build without CUDA both functions throw NoGpuError.
#pragma once

#include <string>
#include <vector>

#include "session/bench_request.hpp"

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

}  // namespace p2p::session
