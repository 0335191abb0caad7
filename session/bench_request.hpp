// What `p2pcheck bench` was asked to do, as plain data (cli/bench_command.cpp fills it from
// the command line, session/bench_session.hpp runs it).
#pragma once

#include <string>
#include <vector>

#include "session/bench_sweep.hpp"
#include "session/measurement_options.hpp"

namespace p2p::session {

struct BenchRequest {
  bool list = false;
  BenchSweepRequest sweep;  // what to measure: GPUs, sizes, samples, host memory, ...
  std::string json_path;
  std::string junit;
  std::string jsonl;
  MeasurementGateOptions gate;
  double init_timeout_s = kDefaultInitTimeoutS;
  bool exclusive = false;
  std::vector<std::string> extras;  // what the command line left over: --benchmark_* flags, checked
};

}  // namespace p2p::session
