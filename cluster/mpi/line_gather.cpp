#include "cluster/mpi/line_gather.hpp"

#include <algorithm>
#include <limits>
#include <thread>

namespace p2p::cluster {
namespace {

constexpr int kTagLine = 1;
constexpr int kTagDone = 2;
constexpr int kTagRelease = 3;
constexpr auto kPollInterval = std::chrono::milliseconds(10);

}  // namespace

LineSender::~LineSender() {
  for (auto& p : pending_) {
    if (p.request != MPI_REQUEST_NULL) MPI_Request_free(&p.request);
  }
}

void LineSender::reap() {
  while (!pending_.empty()) {
    int done = 0;
    P2P_CHECK_MPI(MPI_Test(&pending_.front().request, &done, MPI_STATUS_IGNORE));
    if (!done) return;
    pending_.pop_front();
  }
}

void LineSender::send(const std::string& line) {
  if (line.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("a line too long for one MPI message");
  pending_.push_back(Pending{line, MPI_REQUEST_NULL});
  Pending& p = pending_.back();
  P2P_CHECK_MPI(MPI_Isend(p.text.data(), static_cast<int>(p.text.size()), MPI_CHAR, 0, kTagLine, MPI_COMM_WORLD,
                          &p.request));
  reap();
}

void LineSender::finish() {
  pending_.push_back(Pending{"", MPI_REQUEST_NULL});
  Pending& p = pending_.back();
  P2P_CHECK_MPI(MPI_Isend(p.text.data(), 0, MPI_CHAR, 0, kTagDone, MPI_COMM_WORLD, &p.request));
  for (auto& q : pending_) P2P_CHECK_MPI(MPI_Wait(&q.request, MPI_STATUS_IGNORE));
  pending_.clear();
}

void wait_for_release(const MpiSession&) {
  int ignored = 0;
  P2P_CHECK_MPI(MPI_Recv(&ignored, 1, MPI_INT, 0, kTagRelease, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

void release_all(const MpiSession& session) {
  const int go = 1;
  for (int r = 1; r < session.size(); ++r) P2P_CHECK_MPI(MPI_Send(&go, 1, MPI_INT, r, kTagRelease, MPI_COMM_WORLD));
}

std::vector<GatheredRank> gather_lines(const MpiSession& session, const std::vector<int>& hosts,
                                       std::chrono::steady_clock::time_point deadline) {
  std::vector<GatheredRank> out(static_cast<std::size_t>(session.size()));
  std::size_t waiting = std::count_if(hosts.begin(), hosts.end(), [](int r) { return r != 0; });
  std::string buffer;
  while (waiting > 0) {
    int flag = 0;
    MPI_Status status;
    P2P_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status));
    if (!flag) {
      if (std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    int count = 0;
    P2P_CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &count));
    buffer.assign(static_cast<std::size_t>(count), '\0');
    P2P_CHECK_MPI(MPI_Recv(buffer.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    GatheredRank& from = out.at(static_cast<std::size_t>(status.MPI_SOURCE));
    if (status.MPI_TAG == kTagDone) {
      if (!from.done) --waiting;
      from.done = true;
    } else {
      from.lines.push_back(buffer);
    }
  }
  return out;
}

}  // namespace p2p::cluster
