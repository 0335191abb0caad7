// `p2pcheck check --quick`: the node health check for schedulers and monitoring (a Slurm
// HealthCheckProgram, an NHC check, a node-problem-detector plugin, scripts/healthcheck/):
// doctor, topology and gate, no benchmark, in seconds. Exit code: the worst of the three (0
// healthy; 1 a check failed, the gate blocked or no GPU is there; 2 bad input; 4 an unexpected
// failure); the last line it prints says why.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace p2p::ci {

struct HealthCheckOptions {
  bool quick = false;
  bool brief = false;
  std::string facts;   // doctor facts instead of this host
  std::string input;   // topology instead of this host
  std::string expect;  // gate: golden topology
  std::string policy;  // gate: policy
  double probe_timeout_s = 15;
  std::size_t expect_gpus = 0;  // --expect-gpus: the GPUs the node must have; 0 = no expectation
  std::vector<std::string> allow_env;  // --allow-env: variables accepted (gate_environment.hpp)
  std::string junit;
  std::string jsonl;
  std::string prom;
};

// Reads every file first (bad input fails alone, InputError), then runs the steps: one line per
// step (unless brief) and the verdict line to `out`; JSON lines, JUnit and the Prometheus
// textfile where asked. Returns the exit code.
int run_health_check(const HealthCheckOptions& o, std::ostream& out);

}  // namespace p2p::ci
