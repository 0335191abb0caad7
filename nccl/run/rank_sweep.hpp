// One process's share of a sweep whose ranks live in several processes: the sweep (sweep_loop.hpp)
// as rank processes (rank_process.hpp, the id handed over a pipe), MPI ranks (mpi_run.hpp, the
// id broadcast by MPI) and infer's ranks run it. How the process learnt its ranks and the
// communicator's unique id is the one difference between the first two, and it arrives here as
// a RankStart.
//
// The process joins the communicator (ncclCommInitRank for each local GPU, in one group), warms
// every operation up once at its largest size, then runs the steps in order, meeting the other
// processes before each. Each finished case, and the end, becomes one line (rank_merge.hpp)
// handed to `out` at once.
#pragma once

#include <nccl.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nccl/run/runner.hpp"
#include "nccl/run/sweep_loop.hpp"
#include "nccl/sweep_steps.hpp"

namespace p2p::nccl {

struct RankStart {
  int reporter = 0;  // what this process's lines carry as `rank`: its NCCL rank, or its MPI rank
  int nranks = 0;    // ranks of the communicator
  std::vector<int> ranks;    // the NCCL ranks this process drives
  std::vector<int> devices;  // their CUDA devices, in the same order
  ncclUniqueId id{};
};

// Test hooks (rank_process.hpp): SIGKILL before step `kill_before_step`; a silent stall of
// twice the timeout in step `stall_in_step`.
struct RankHooks {
  std::optional<int> kill_before_step;
  std::optional<int> stall_in_step;
};

using LineSink = std::function<void(const std::string& line)>;

// Runs `warm_ups` (largest_per_operation of the plan) and `steps` as described above. Returns
// the exit code: 0 when every step ran, kExitHang or kExitRuntime when the sweep stopped (its
// end line says why). Other failures (NCCL init, buffers) are written as an end line and
// rethrown.
// The lines of a sweep on `loop`: the ready line, each warm-up (where this process takes part),
// each step's case, and the end line. Returns the exit code as run_rank_sweep does. `timeout`
// is what the stall hook doubles.
int run_steps(SweepLoop& loop, int reporter, const std::vector<PlannedCase>& warm_ups,
              const std::vector<SweepStep>& steps, const LineSink& out, const RankHooks& hooks,
              std::chrono::duration<double> timeout);

int run_rank_sweep(const RunOptions& options, const RankStart& start,
                   const std::vector<PlannedCase>& warm_ups, const std::vector<SweepStep>& steps,
                   const LineSink& out, const RankHooks& hooks = {});

}  // namespace p2p::nccl
