// `p2pcheck nccl` under MPI (nccl/run/mpi_run.hpp): rank 0 judges its host's gate, every process
// runs its share, rank 0 writes everything the one-host run writes; the others return their
// own sweep's exit code. With --jsonl every process writes its own lines as it goes. Builds
// with NCCL and MPI only.
#pragma once

#include <string>

#include "common/run_resources.hpp"
#include "nccl/run/runner.hpp"
#include "session/nccl_request.hpp"

namespace p2p::mpi {
class Session;
}

namespace p2p::session {

int run_nccl_under_mpi(const NcclRequest& o, nccl::RunOptions options, mpi::Session& mpi_session,
                       const std::string& launch, const std::string& started_utc,
                       const RunClock& clock);

}  // namespace p2p::session
