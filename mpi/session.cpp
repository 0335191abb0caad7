#include "mpi/session.hpp"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <thread>

#include "common/error.hpp"

namespace p2p {

struct MpiRc {
  int rc;
};

inline void check(MpiRc r, CallSite at) {
  if (r.rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(r.rc, text, &length) != MPI_SUCCESS)
    std::snprintf(text, sizeof text, "unknown MPI error");
  throw ApiError("MPI", r.rc, text, at);
}

}  // namespace p2p

#define P2P_CHECK_MPI(expr) ::p2p::check(::p2p::MpiRc{(expr)}, P2P_CALL_SITE(expr))

namespace p2p::mpi {

namespace {

// The stream channel's tag; exchanges use tags above it, a fresh one per exchange, so a late
// message of one exchange is never taken for part of the next.
constexpr int kStreamTag = 1;
constexpr int kFirstExchangeTag = 16;
// Polling interval: the exchanges carry a few kilobytes, their latency does not matter, and a
// sleeping rank leaves the CPU to NCCL's proxy threads.
constexpr std::chrono::milliseconds kPoll{2};

using Clock = std::chrono::steady_clock;

// Receives a message from `source` with `tag` once one has arrived; nullopt past `until`.
std::optional<std::string> receive_by(int source, int tag, Clock::time_point until) {
  for (;;) {
    int arrived = 0;
    MPI_Status status{};
    P2P_CHECK_MPI(MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, &status));
    if (arrived != 0) {
      int count = 0;
      P2P_CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &count));
      std::string bytes(static_cast<std::size_t>(count), '\0');
      P2P_CHECK_MPI(
          MPI_Recv(bytes.data(), count, MPI_CHAR, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      return bytes;
    }
    if (Clock::now() > until) return std::nullopt;
    std::this_thread::sleep_for(kPoll);
  }
}

// Sends and waits for the send to complete, at most until `until`; false when it did not (the
// receiver is gone or stuck). The request is then left to MPI: the job is ending without it.
bool send_by(int dest, int tag, const std::string& bytes, Clock::time_point until) {
  MPI_Request request = MPI_REQUEST_NULL;
  P2P_CHECK_MPI(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, dest, tag,
                          MPI_COMM_WORLD, &request));
  for (;;) {
    int done = 0;
    P2P_CHECK_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (done != 0) return true;
    if (Clock::now() > until) return false;
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace

Session::Session() {
  int provided = 0;
  P2P_CHECK_MPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  P2P_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  P2P_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size_));
  tag_ = kFirstExchangeTag;
}

Session::~Session() {
  // Leaving with an exception: this process may be the only one that failed, and
  // MPI_Finalize would wait for the others; the launcher ends the job when it exits.
  if (abandoned_ || std::uncaught_exceptions() > 0) return;
  const int rc = MPI_Finalize();
  if (rc != MPI_SUCCESS) std::fprintf(stderr, "p2pcheck: warning: MPI_Finalize failed (%d)\n", rc);
}

std::string Session::processor_name() const {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  P2P_CHECK_MPI(MPI_Get_processor_name(name, &length));
  return std::string(name, static_cast<std::size_t>(length));
}

int Session::next_tag() {
  // Every rank calls the exchanges in the same order, so the counters agree. MPI guarantees
  // tags up to 32767; wrap well before.
  const int tag = tag_;
  tag_ = tag_ >= 32000 ? kFirstExchangeTag : tag_ + 1;
  return tag;
}

std::optional<std::string> Session::broadcast(int root, const std::string& bytes,
                                              Seconds deadline) {
  const int tag = next_tag();
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(deadline);
  if (rank_ != root) return receive_by(root, tag, until);
  // Nonblocking sends to all at once: one dead rank does not hold up the others.
  std::vector<MPI_Request> requests(static_cast<std::size_t>(size_), MPI_REQUEST_NULL);
  for (int r = 0; r < size_; ++r) {
    if (r == root) continue;
    P2P_CHECK_MPI(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, r, tag,
                            MPI_COMM_WORLD, &requests[static_cast<std::size_t>(r)]));
  }
  for (;;) {
    int done = 0;
    P2P_CHECK_MPI(MPI_Testall(size_, requests.data(), &done, MPI_STATUSES_IGNORE));
    if (done != 0 || Clock::now() > until) break;
    std::this_thread::sleep_for(kPoll);
  }
  return bytes;
}

std::vector<std::optional<std::string>> Session::gather(int root, const std::string& bytes,
                                                        Seconds deadline) {
  const int tag = next_tag();
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(deadline);
  if (rank_ != root) {
    send_by(root, tag, bytes, until);
    return {};
  }
  std::vector<std::optional<std::string>> out(static_cast<std::size_t>(size_));
  out[static_cast<std::size_t>(root)] = bytes;
  for (int r = 0; r < size_; ++r) {
    if (r == root) continue;
    // One shared deadline: a missing rank costs the wait once, not once per rank.
    out[static_cast<std::size_t>(r)] = receive_by(r, tag, until);
  }
  return out;
}

void Session::post(int dest, std::string bytes) {
  posted_.push_back(std::move(bytes));
  const std::string& kept = posted_.back();  // a deque never moves its elements on push_back
  MPI_Request request = MPI_REQUEST_NULL;
  P2P_CHECK_MPI(MPI_Isend(kept.data(), static_cast<int>(kept.size()), MPI_CHAR, dest, kStreamTag,
                          MPI_COMM_WORLD, &request));
  P2P_CHECK_MPI(
      MPI_Request_free(&request));  // completes on its own; the buffer lives as long as the session
}

std::vector<std::pair<int, std::string>> Session::drain() {
  std::vector<std::pair<int, std::string>> out;
  for (;;) {
    int arrived = 0;
    MPI_Status status{};
    P2P_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, kStreamTag, MPI_COMM_WORLD, &arrived, &status));
    if (arrived == 0) return out;
    int count = 0;
    P2P_CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &count));
    std::string bytes(static_cast<std::size_t>(count), '\0');
    P2P_CHECK_MPI(MPI_Recv(bytes.data(), count, MPI_CHAR, status.MPI_SOURCE, kStreamTag,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    out.emplace_back(status.MPI_SOURCE, std::move(bytes));
  }
}

}  // namespace p2p::mpi
