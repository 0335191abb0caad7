// MPI for `p2pcheck cluster`, and only for it: MPI_Init is called when that command runs, so the
// same MPI-linked executable runs every other command alone, without mpirun. The session owns
// MPI_Init/MPI_Finalize; every MPI call returns its error (MPI_ERRORS_RETURN on the world
// communicator) and P2P_CHECK_MPI turns it into an ApiError naming the call.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "common/error.hpp"

namespace p2p::cluster {

struct MpiRc {
  int rc;
};
void check(MpiRc r, CallSite at);
#define P2P_CHECK_MPI(expr) ::p2p::cluster::check(::p2p::cluster::MpiRc{(expr)}, P2P_CALL_SITE(expr))

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();  // MPI_Finalize, unless abort() ended the job
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Every rank's string (a host name), in rank order; collective.
  std::vector<std::string> all_gather(const std::string& mine) const;

  // Ends every rank of the job with `exit_code` (mpirun exits with it). Used when a rank
  // stalls: MPI_Finalize would wait for it forever.
  [[noreturn]] void abort(int exit_code);

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace p2p::cluster
