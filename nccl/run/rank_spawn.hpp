// Rank processes of this executable, shared by `nccl --rank-processes` and `infer`: each is
// started with the NCCL unique id on its standard input (never on a command line), appends its
// lines to <work_dir>/rank<R>.jsonl (rank_merge.hpp), and is watched with a deadline: when no
// rank has written a line for the timeout plus 60 s (plus 5 s once a rank has died) the parent
// kills those left and says why. A rank that ends badly makes the parent SIGTERM the others so
// they abort their communicators at once.
#pragma once

#include <nccl.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "nccl/rank_merge.hpp"
#include "nccl/run/runner.hpp"

namespace p2p::nccl {

struct RankChild {
  RankExit exit;
  bool running = true;
  off_t reported_bytes = 0;
};

// `p2pcheck <args...>` (this executable) with `id` on its standard input.
pid_t spawn_rank(const std::vector<std::string>& args, const ncclUniqueId& id);

// Ranks 0..nranks-1, each `p2pcheck <args_of(rank)...>`. When one cannot be started, those
// already started are killed and reaped, and the error is rethrown.
std::vector<RankChild> spawn_ranks(int nranks,
                                   const std::function<std::vector<std::string>(int)>& args_of,
                                   const ncclUniqueId& id);

// Waits for every rank process; kills those left when no rank reports for too long, or all of
// them when this process is asked to stop (SIGINT/SIGTERM, common/interrupt.hpp). The progress
// line counts cases of `plan_size` as the ranks report them; `on_news` (may be empty) runs
// whenever a rank wrote something.
void watch_ranks(std::vector<RankChild>& children, const std::string& work_dir,
                 std::chrono::duration<double> timeout, std::size_t plan_size,
                 const Progress& progress, const std::function<void()>& on_news = {});

// The child's side.

// A rank's results file, opened for appending; each write() is one write(2) of a whole line.
class LineFile {
 public:
  explicit LineFile(const std::string& path);
  ~LineFile();
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;
  void write(const std::string& line);

 private:
  int fd_;
};

// The unique id the parent wrote on `fd`; InputError naming `subcommand` when it ends early.
ncclUniqueId read_unique_id(int fd, const std::string& subcommand);

// SIGTERM (sent by the parent when another rank process has ended) calls request_stop(), so this
// process aborts its communicator at its next wait instead of waiting out the deadline.
void stop_on_sigterm();

}  // namespace p2p::nccl
