// `p2pcheck nccl` without the CLI: sets up NCCL's logging, loads NCCL, runs the sweep
// (sweep_loop.hpp) with every rank in this process, each planned case as a Google Benchmark
// (see benchmark_registration.hpp; a hang or a failed call is recorded and a fresh clique is
// built for the next one), then reads NCCL's log for the transport matrix. Ranks in processes
// of their own run the same sweep through rank_sweep.hpp.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "document/nccl_run.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/plan.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/measure.hpp"
#include "nccl/run/sweep_loop.hpp"
#include "nccl/sweep.hpp"

namespace p2p::nccl {

struct RunOptions {
  std::vector<int> devices;  // CUDA ordinals in rank order; empty = every visible device
  // Ranks, placed round-robin on `devices` (place_ranks); 0 = one per device.
  int nranks = 0;
  // One process per rank (rank_process.hpp); implied when there are more ranks than devices.
  bool rank_processes = false;
  std::vector<Collective> collectives = all_collectives();
  std::vector<DataType> dtypes = {DataType::kFloat32};
  SweepSpec sweep;
  MeasureOptions measure;
  bool p2p_disabled = false;  // set NCCL_P2P_DISABLE=1 (takes effect only in a fresh process)
  std::string nccl_log_path;  // NCCL_DEBUG_FILE; required
  std::vector<std::string> benchmark_args;  // "--benchmark_*=..." for Google Benchmark
  BufferAllocator buffers = BufferAllocator::kAuto;
  // The sweep and iteration counts are the command's defaults (none given): ranks that share
  // a GPU then run the smaller sweep of shared_device_sweep(). Not serialised: rank processes
  // receive the sweep already chosen.
  bool sweep_from_defaults = false;
  // Test hook, called before each measurement with the clique it will run on. Not serialised:
  // rank processes never run it.
  BeforeCase before_case;
  // Called with each result as its case finishes (`nccl --jsonl`); not serialised. With rank
  // processes, once every participating rank has reported the case (in the order they finish).
  std::function<void(const doc::CollectiveResult&)> on_result;
};

// The default sweep for ranks that share a GPU. Their kernels take turns on it, so every
// operation costs tens of milliseconds whatever its size (and sockets carry every byte): the
// full default (8 B .. 1 GiB, 20 iterations) would take an hour on 8 ranks. 64 KiB .. 4 MiB by
// 4 with 5 iterations runs every code path of every collective and pair in well under a minute;
// the figures measure the tool, not the links, either way.
RunOptions shared_device_sweep(RunOptions defaults);

// Where the progress line goes (nullptr: nowhere) and what it is called ("p2pcheck nccl").
// Not used when --benchmark_format hands the terminal to Google Benchmark's own reporter.
struct Progress {
  std::ostream* out = nullptr;
  std::string label;
  bool terminal = false;  // rewrite one line in place
};

// A SIGINT/SIGTERM caught by an InterruptGuard (common/interrupt.hpp) stops the sweep after the
// case in progress: later cases are neither measured nor recorded, and rank processes are
// stopped, keeping the cases every participating rank finished.
// NoGpuError when NCCL cannot be loaded or no CUDA device is usable; InputError for devices
// that do not exist or a bad --benchmark_* flag. Must be the first NCCL use in the process
// (NCCL reads its environment once). With `rank_processes`, or more ranks than devices, the
// ranks run as processes of this executable (run_rank_processes): only the p2pcheck binary,
// whose hidden `nccl-rank` subcommand they run, can do that.
doc::NcclRun run_nccl_sweep(const RunOptions& options, const Progress& progress);

// How many CUDA devices this process sees; NoGpuError naming the cause when none.
int visible_device_count();

// The devices the run uses: `requested` checked against the visible ones, or all of them.
// NoGpuError when there is none; InputError for one that does not exist or is listed twice.
std::vector<int> select_devices(const std::vector<int>& requested);

// The planned cases that --benchmark_filter (in `options.benchmark_args`) lets through, in the
// order every rank measures them. Initialises Google Benchmark with those flags; InputError
// for a bad flag or a filter that selects nothing.
std::vector<PlannedCase> selected_plan(const RunOptions& options, int nranks);

// Versions, NCCL_* variables and one record per rank (`devices` in rank order).
doc::NcclEnvironment describe_environment(const NcclApi& api, const std::vector<int>& devices,
                                          const EnvMap& user, const EnvMap& ours);

// A result record for one planned case (bandwidths from the measured time). Pure.
doc::CollectiveResult make_result(const PlannedCase& c, int nranks, const Measurement& m,
                                  const RunOptions& o);

}  // namespace p2p::nccl
