// Whether a `p2pcheck nccl` run is one process on this host or one of the processes of an MPI
// job, and the options that make no sense on one side of that line. Pure, in every build.
#pragma once

#include <string>

#include "mpi/launch_env.hpp"
#include "session/nccl_request.hpp"

namespace p2p::session {

// What makes this an MPI run: "--mpi", the launcher variable of `environment` that says one
// started this process (mpi/launch_env.hpp), or "" for a run on this host alone.
std::string mpi_launch(const NcclRequest& r, const mpi::Environment& environment);

// A build without MPI cannot join a job: the one line saying how to get it (exit 2), rather
// than N copies of a one-host run that each believe they are alone. "" when nothing is refused.
std::string refusal_without_mpi(const std::string& launch, bool built_with_mpi);

// InputError for an option that means nothing, or something else, on the other side of the
// MPI line (`launch` as mpi_launch returns it).
void check_mpi_options(const NcclRequest& r, const std::string& launch);

}  // namespace p2p::session
