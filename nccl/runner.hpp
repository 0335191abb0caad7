// `p2pcheck nccl` without the CLI: sets up NCCL's logging, loads NCCL, builds the clique,
// runs the planned measurements as Google Benchmarks (see harness.hpp; a hang or a failed
// call is recorded and a fresh clique is built for the next one), then reads NCCL's log for
// the transport matrix.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "nccl/clique.hpp"
#include "nccl/measure.hpp"
#include "nccl/plan.hpp"
#include "nccl/results.hpp"
#include "nccl/sweep.hpp"

namespace p2p::nccl {

struct RunOptions {
  std::vector<int> devices;  // CUDA ordinals in rank order; empty = every visible device
  std::vector<Collective> collectives = all_collectives();
  std::vector<DataType> dtypes = {DataType::kFloat32};
  SweepSpec sweep;
  MeasureOptions measure;
  bool p2p_disabled = false;  // set NCCL_P2P_DISABLE=1 (takes effect only in a fresh process)
  std::string nccl_log_path;  // NCCL_DEBUG_FILE; required
  std::vector<std::string> benchmark_args;  // "--benchmark_*=..." for Google Benchmark
  BufferAllocator buffers = BufferAllocator::kAuto;
  // Test hook, called before each measurement with the clique it will run on.
  std::function<void(Clique&, const PlannedCase&)> before_case;
};

// Where the progress line goes (nullptr: nowhere) and what it is called ("p2pcheck nccl").
// Not used when --benchmark_format hands the terminal to Google Benchmark's own reporter.
struct Progress {
  std::ostream* out = nullptr;
  std::string label;
  bool terminal = false;  // rewrite one line in place
};

// NoGpuError when NCCL cannot be loaded or no CUDA device is usable; InputError for devices
// that do not exist or a bad --benchmark_* flag. Must be the first NCCL use in the process
// (NCCL reads its environment once).
NcclRun run_nccl_sweep(const RunOptions& options, const Progress& progress);

// A result record for one planned case (bandwidths from the measured time). Pure.
CollectiveResult make_result(const PlannedCase& c, int nranks, const Measurement& m, const RunOptions& o);

}  // namespace p2p::nccl
