// What `p2pcheck nccl` was asked to do, as plain data (cli/nccl_command.cpp fills it from the
// command line, session/nccl_session.hpp runs it).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "session/measurement_options.hpp"

namespace p2p::session {

struct NcclRequest {
  std::vector<int> devices;  // empty = all visible
  int ranks = 0;             // 0 = one per selected device
  bool rank_processes = false;
  // Across MPI processes and hosts (nccl/run/mpi_run.hpp): --mpi, or found in the environment
  // (mpi/launch_env.hpp).
  bool mpi = false;
  bool rank_per_gpu = false;   // one GPU per MPI process, chosen by the launcher's local rank
  bool no_host_pairs = false;  // skip the host-pair rounds
  std::vector<std::string> collectives;  // empty = all
  std::vector<std::string> dtypes = {"float32"};
  std::string min_bytes = "8";
  std::string max_bytes = "1G";
  unsigned step_factor = 2;
  int iters = 20;
  int warmup = 5;
  int samples = 5;
  bool full = false;                // the send/recv pair matrix at every size
  bool sweep_from_defaults = true;  // none of -b -e -f -n -w --samples given
  bool graph = false;
  double timeout_s = 30.0;
  double init_timeout_s = kDefaultInitTimeoutS;  // the isolated cuInit preflight
  bool exclusive = false;                        // refuse to start on a GPU someone else uses
  double min_busbw_gbps = std::numeric_limits<double>::quiet_NaN();  // NaN = not given
  std::string saturation_bytes;                                      // empty = found per series
  bool compare_p2p_off = false;
  std::string json;
  std::string junit;  // JUnit XML of every result and verdict, "" = none
  // --jsonl: one line per result as it finishes, "" = none; under MPI every process writes
  // its own file (FILE with .rank<R> before the extension).
  std::string jsonl;
  std::string nccl_log;
  std::string buffers = "auto";  // auto | ncclMemAlloc | cudaMalloc
  bool p2p_off_child = false;    // internal: this process is the P2P-off half of a comparison
  std::string options_file;  // internal: the P2P-off half reads its whole sweep from this JSON file
  MeasurementGateOptions gate;
  std::vector<std::string> benchmark_args;  // --benchmark_* for Google Benchmark, checked
};

}  // namespace p2p::session
