// The two halves of `p2pcheck nccl` that a one-host run and an MPI run share, and the MPI run
// itself (cli/nccl_mpi_command.cpp). NCCL builds only.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cli/gpu_sharing_check.hpp"
#include "cli/measurement_gate.hpp"
#include "cli/nccl_command.hpp"
#include "common/run_resources.hpp"
#include "nccl/report.hpp"
#include "nccl/runner.hpp"

namespace p2p::mpi {
class Session;
}

namespace p2p::cli {

struct NcclVerdict {
  int exit_code = 0;
  nlohmann::json summary;  // the run_end line's fields: results, interrupted, gpu_shared
};

// After the sweep: --min-busbw verdicts, the tables, the results document (--json, marked
// interrupted after SIGINT/SIGTERM and shared when `sharing` saw another user of the GPUs),
// JUnit, and the exit code (128+N after a signal, 5 a hang, 4 a rank that died or sent
// nothing, 1 wrong/error/verdict, else 0). `sharing` may be null (MPI runs, the P2P-off child).
NcclVerdict report_and_judge(const NcclCommandOptions& o, const nccl::RunOptions& options, nccl::NcclReport& report,
                             const TopologyAndGate& tg, const std::string& started_utc, const RunClock& clock,
                             SharingCheck* sharing);

// `p2pcheck nccl` under MPI (nccl/mpi_run.hpp): rank 0 judges its host's gate, every process
// runs its share, rank 0 writes everything the one-host run writes; the others return their
// own sweep's exit code. With --jsonl every process writes its own lines as it goes.
int run_nccl_under_mpi(const NcclCommandOptions& o, nccl::RunOptions options, mpi::Session& session,
                       const std::string& launch, const std::string& started_utc, const RunClock& clock);

}  // namespace p2p::cli
