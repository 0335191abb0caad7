// nccl in a build without NCCL: options that are bad in every build are still refused as such
// (exit 2), then one line says it is not there (exit 3).
#include <iostream>

#include "common/exit_codes.hpp"
#include "session/nccl_launch.hpp"
#include "session/nccl_session.hpp"

namespace p2p::session {

int run_nccl_session(const NcclRequest& r) {
  const std::string launch = mpi_launch(r, mpi::process_environment());
  if (const std::string refusal = refusal_without_mpi(launch, P2P_HAVE_MPI); !refusal.empty()) {
    std::cerr << refusal;
    return kExitBadInput;
  }
  check_mpi_options(r, launch);
  std::cerr
      << "p2pcheck nccl: this p2pcheck was built without NCCL (no CUDA compiler or nccl.h at build time)\n";
  return kExitNoGpu;
}

int run_nccl_rank(const std::string&, int) { return run_nccl_session(NcclRequest{}); }

}  // namespace p2p::session
