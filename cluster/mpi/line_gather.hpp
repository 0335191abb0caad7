// Every host's lines to rank 0, as they happen: a host rank sends each line with a nonblocking
// send the moment it writes it to its own file, then a "done" message; rank 0 polls
// (MPI_Iprobe) until every host rank is done or the deadline passes. A rank that stalls or dies
// mid-run never blocks rank 0: whatever lines it sent are its record, read exactly like a file
// a killed run left behind (no run_end: "no result", with its last completed step).
#pragma once

#include <chrono>
#include <deque>
#include <string>
#include <vector>

#include "cluster/mpi/mpi_session.hpp"

namespace p2p::cluster {

// One host rank's side. Buffers stay alive until their send completes.
class LineSender {
 public:
  explicit LineSender(const MpiSession& session) : session_(session) {}
  ~LineSender();  // waits for nothing: a job ending early abandons pending sends
  LineSender(const LineSender&) = delete;
  LineSender& operator=(const LineSender&) = delete;

  void send(const std::string& line);
  // The last message, then waits until every send has been received.
  void finish();

 private:
  struct Pending {
    std::string text;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  void reap();
  const MpiSession& session_;
  std::deque<Pending> pending_;
};

struct GatheredRank {
  std::vector<std::string> lines;  // whole lines, in the order sent
  bool done = false;               // its chain ended and said so
};

// Rank 0: the lines of every rank in `hosts` (rank numbers, rank 0 excluded: its own lines are
// local) until each is done or `deadline`. Indexed by rank; ranks not in `hosts` stay empty.
std::vector<GatheredRank> gather_lines(const MpiSession& session, const std::vector<int>& hosts,
                                       std::chrono::steady_clock::time_point deadline);

// The end of a job. Every rank but 0 waits in wait_for_release() before MPI_Finalize; rank 0
// calls release_all() once every host rank is done, and everyone finalizes. When a host rank
// stalled, rank 0 calls MPI_Abort instead: the waiting ranks are then in a receive, which Open
// MPI 4.1 tears down cleanly (ranks already inside MPI_Finalize make mpirun crash or hang).
void wait_for_release(const MpiSession& session);
void release_all(const MpiSession& session);

}  // namespace p2p::cluster
