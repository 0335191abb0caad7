// `p2pcheck nccl --mpi`: one NCCL communicator across MPI processes and hosts, bootstrapped as
// nccl-tests does. Every process says which GPUs it drives (all visible ones, --gpus, or with
// --rank-per-gpu the one of its local rank), rank 0 numbers the NCCL ranks (rank_layout.hpp)
// and creates the ncclUniqueId, MPI hands both to everyone, and each process joins with
// ncclCommInitRank per local GPU inside one group. From there every process runs the same
// rank loop as a rank process (rank_sweep.hpp): the planned cases, then across two or more
// hosts the host-pair rounds (sweep_steps.hpp).
//
// Every line a process writes is also streamed to rank 0 as it goes, and each process sends
// rank 0 its devices and NCCL log at the end; every exchange has a deadline (mpi/session.hpp),
// so a process that died or is stuck is reported as "no result" with the last case it
// completed while the others' figures are kept. Rank 0 then tells every process whether to
// finalise MPI: when one never answered, nobody does (MPI_Finalize would wait for it), and the
// launcher ends the job when rank 0 exits.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "document/nccl_run.hpp"
#include "mpi/session.hpp"
#include "nccl/run/rank_sweep.hpp"
#include "nccl/run/runner.hpp"

namespace p2p::nccl {

struct MpiOptions {
  std::string launch;         // what made this an MPI run: "--mpi" or the launcher variable
  bool rank_per_gpu = false;  // one GPU per process: the launcher's local rank picks it
  bool host_pairs = true;     // the host-pair rounds, across two or more hosts
  // Rank 0 only: why the run must not start (its gate blocked); every process then gets
  // RunRefused with it instead of a sweep.
  std::string refusal;
};

// The run was refused before it started (a verdict, exit 1), on every process.
class RunRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MpiOutcome {
  std::optional<doc::NcclRun> run;  // rank 0 only
  int exit_code = 0;  // this process's sweep (rank_sweep.hpp); rank 0 judges the run itself
};

// `each_line`: every line this process writes, as it writes it (for --jsonl). NoGpuError,
// InputError or HangError on every process when any process cannot take part (the one line
// names the process and host); otherwise the sweep's own failures are in the results.
MpiOutcome run_nccl_mpi(const RunOptions& options, mpi::Session& session, const MpiOptions& mpi,
                        const LineSink& each_line, const Progress& progress);

}  // namespace p2p::nccl
