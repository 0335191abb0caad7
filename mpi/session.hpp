// MPI for p2pcheck's cross-host paths: one RAII session per process (MPI_Init_thread ..
// MPI_Finalize), the rank, size and host name, and byte strings moved between ranks with a
// deadline. Every exchange is built from nonblocking point-to-point calls polled against the
// clock (MPI_Isend / MPI_Iprobe / MPI_Test), never from MPI's blocking collectives: a rank that
// died or hangs in a GPU call cannot hang the others, who report it as missing instead.
//
// Failed MPI calls become ApiError("MPI", code, MPI_Error_string, call site): the session sets
// MPI_ERRORS_RETURN on MPI_COMM_WORLD, so MPI returns errors instead of aborting the job.
#pragma once

#include <chrono>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace p2p::mpi {

using Seconds = std::chrono::duration<double>;

class Session {
 public:
  // MPI_Init_thread (MPI_THREAD_FUNNELED: only this thread calls MPI). Without a launcher,
  // Open MPI starts a one-rank job ("singleton").
  Session();
  // MPI_Finalize, unless abandon() was called or an exception is leaving the scope: finalising
  // waits for every rank, and a rank that never answered (or failed alone) would make it wait
  // forever. The launcher ends the job when a process exits without it.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  std::string processor_name() const;  // MPI_Get_processor_name: the host as MPI names it

  // Root: hands `bytes` to every other rank and returns them. Others: what root sent, or
  // nullopt when nothing came within `deadline`.
  std::optional<std::string> broadcast(int root, const std::string& bytes, Seconds deadline);

  // Root: every rank's bytes by rank (its own included), nullopt for a rank that sent nothing
  // within `deadline`. Others: send theirs and get an empty vector.
  std::vector<std::optional<std::string>> gather(int root, const std::string& bytes,
                                                 Seconds deadline);

  // Fire and forget: `bytes` to `dest` on the stream channel (kept here until sent). Used for
  // lines a rank writes as it goes, so that root knows how far a rank got even if it never
  // answers a gather.
  void post(int dest, std::string bytes);
  // Everything that has arrived on the stream channel so far, as (source rank, bytes), in the
  // order each source sent it (MPI keeps one sender's messages in order).
  std::vector<std::pair<int, std::string>> drain();

  // Skip MPI_Finalize at the end (see the destructor).
  void abandon() { abandoned_ = true; }

 private:
  int next_tag();

  int rank_ = 0;
  int size_ = 1;
  int tag_ = 0;
  bool abandoned_ = false;
  std::deque<std::string> posted_;  // buffers of posted sends: MPI reads them until they complete
};

}  // namespace p2p::mpi
