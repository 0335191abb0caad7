// What `p2pcheck bench` was asked to do, as plain data (cli/bench_command.cpp fills it from
// the command line, session/bench_session.hpp runs it).
#pragma once

#include <string>
#include <vector>

#include "session/measurement_options.hpp"

namespace p2p::session {

struct BenchRequest {
  bool list = false;
  std::string gpus;
  std::string sizes;
  int samples = 5;
  int warmup_samples = 1;
  int copies = 0;
  std::string json_path;
  std::string junit;
  std::string jsonl;
  MeasurementGateOptions gate;
  bool no_affinity = false;
  std::string host_memory = "pinned";
  int logical_gpus = 0;
  bool full = false;
  double init_timeout_s = kDefaultInitTimeoutS;
  bool exclusive = false;
  std::vector<std::string> extras;  // what the command line left over: --benchmark_* flags, checked
};

}  // namespace p2p::session
