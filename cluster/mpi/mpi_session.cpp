#include "cluster/mpi/mpi_session.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace p2p::cluster {

void check(MpiRc r, CallSite at) {
  if (r.rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(r.rc, text, &length) != MPI_SUCCESS) std::strcpy(text, "unknown MPI error");
  throw ApiError("MPI", r.rc, text, at);
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int initialized = 0;
  P2P_CHECK_MPI(MPI_Initialized(&initialized));
  if (initialized) throw std::logic_error("MPI is initialized twice");
  P2P_CHECK_MPI(MPI_Init(argc, argv));
  // From here on a failed call returns (and throws) instead of killing the job silently.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  P2P_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  P2P_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size_));
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();  // a destructor never throws: the return code has nowhere to go
}

std::vector<std::string> MpiSession::all_gather(const std::string& mine) const {
  constexpr int kWidth = 256;  // host names are at most 255 bytes (HOST_NAME_MAX is 64 on Linux)
  std::vector<char> out(static_cast<std::size_t>(kWidth) * size_, '\0');
  char in[kWidth] = {};
  std::memcpy(in, mine.data(), std::min<std::size_t>(mine.size(), kWidth - 1));
  P2P_CHECK_MPI(MPI_Allgather(in, kWidth, MPI_CHAR, out.data(), kWidth, MPI_CHAR, MPI_COMM_WORLD));
  std::vector<std::string> all;
  for (int r = 0; r < size_; ++r) all.emplace_back(out.data() + static_cast<std::size_t>(r) * kWidth);
  return all;
}

void MpiSession::abort(int exit_code) {
  std::fflush(nullptr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; should it, the job still ends here
}


}  // namespace p2p::cluster
