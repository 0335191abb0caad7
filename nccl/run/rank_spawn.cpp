// Rank processes of this executable: started with the NCCL unique id on standard input,
// watched with a deadline (see rank_spawn.hpp).
#include "nccl/run/rank_spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <ostream>
#include <thread>

#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/progress_meter.hpp"
#include "common/spawn_actions.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/rank_process.hpp"

extern char** environ;

namespace p2p::nccl {

namespace {

using Seconds = std::chrono::duration<double>;

// Before the first line (NCCL init, buffers, warm-up) and between two lines a rank may
// legitimately take the per-operation timeout several times over; the same floor as the
// in-process setup deadline (clique.cpp).
constexpr Seconds kSilenceFloor{60.0};
// Once a rank has died the others stop at their next collective with it, within the timeout.
constexpr Seconds kAfterDeathGrace{5.0};

void record_status(RankChild& c, int status) {
  c.running = false;
  if (WIFEXITED(status)) c.exit.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) c.exit.signal = WTERMSIG(status);
}

off_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

std::string seconds_text(Seconds s) {
  return std::to_string(static_cast<long long>(s.count() + 0.5)) + " s";
}

// The sweep's position as the furthest case a rank has reported (`shown`, 1-based).
void show_progress(ProgressMeter& meter, int rank, const std::string& results_path,
                   std::size_t ranks, std::size_t& shown) {
  const RankLog log = parse_rank_log(rank, try_read_text_file(results_path).value_or(""));
  if (log.cases.empty() || static_cast<std::size_t>(log.cases.back().index) < shown) return;
  shown = static_cast<std::size_t>(log.cases.back().index) + 1;
  meter.update(shown,
               log.cases.back().case_name + " (" + std::to_string(ranks) + " rank processes)");
}

// Collects the ranks that have ended. The first that failed sets `someone_died`: the others
// cannot finish a collective without it, so they are asked to abort their communicators now
// (their SIGTERM handler, see request_stop) rather than wait out their deadlines; the silence
// deadline of watch_ranks still backs that up. True while any rank still runs.
bool reap_finished(std::vector<RankChild>& children, bool& someone_died) {
  bool any_running = false;
  for (RankChild& c : children) {
    if (!c.running) continue;
    int status = 0;
    if (::waitpid(c.exit.pid, &status, WNOHANG) != c.exit.pid) {
      any_running = true;
      continue;
    }
    record_status(c, status);
    if ((c.exit.signal || c.exit.exit_code.value_or(0) != 0) && !someone_died) {
      someone_died = true;
      for (const RankChild& other : children) {
        if (other.running) ::kill(other.exit.pid, SIGTERM);
      }
    }
  }
  return any_running;
}

// Ends every rank still running, each marked killed by us for `why`, and waits for each.
void kill_running(std::vector<RankChild>& children, const std::string& why) {
  for (RankChild& c : children) {
    if (!c.running) continue;
    ::kill(c.exit.pid, SIGKILL);
    c.exit.killed_by_parent = true;
    c.exit.why_killed = why;
  }
  for (RankChild& c : children) {
    if (!c.running) continue;
    int status = 0;
    while (::waitpid(c.exit.pid, &status, 0) < 0 && errno == EINTR) {
    }
    record_status(c, status);
  }
}

}  // namespace

pid_t spawn_rank(const std::vector<std::string>& args, const ncclUniqueId& id) {
  int fds[2] = {-1, -1};
  P2P_CHECK_POSIX(::pipe2(fds, O_CLOEXEC));  // no other rank inherits this pipe
  std::vector<std::string> all = {"p2pcheck"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  SpawnFileActions actions;
  posix_spawn_file_actions_adddup2(actions.get(), fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", actions.get(), nullptr, argv.data(), environ);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    throw std::runtime_error("cannot start rank process `" + args.at(0) +
                             "`: " + std::strerror(rc));
  }
  // 128 bytes fit in any pipe buffer: this never blocks, even before the child reads.
  const ssize_t n = ::write(fds[1], &id, sizeof(id));
  ::close(fds[1]);
  if (n != static_cast<ssize_t>(sizeof(id)))
    ::kill(pid, SIGKILL);  // it would wait for NCCL forever
  return pid;
}

std::vector<RankChild> spawn_ranks(int nranks,
                                   const std::function<std::vector<std::string>(int)>& args_of,
                                   const ncclUniqueId& id) {
  std::vector<RankChild> children;
  for (int r = 0; r < nranks; ++r) {
    RankChild c;
    c.exit.rank = r;
    try {
      c.exit.pid = static_cast<int>(spawn_rank(args_of(r), id));
    } catch (...) {
      for (RankChild& started : children) ::kill(started.exit.pid, SIGKILL);
      for (RankChild& started : children) ::waitpid(started.exit.pid, nullptr, 0);
      throw;
    }
    children.push_back(c);
  }
  return children;
}

void watch_ranks(std::vector<RankChild>& children, const std::string& work_dir,
                 std::chrono::duration<double> timeout, std::size_t plan_size,
                 const Progress& progress, const std::function<void()>& on_news) {
  using Clock = std::chrono::steady_clock;
  auto last_news = Clock::now();
  bool someone_died = false;
  bool death_seen = false;
  std::size_t shown = 0;
  std::optional<ProgressMeter> meter;
  if (progress.out != nullptr)
    meter.emplace(*progress.out, progress.label + ": ", plan_size, progress.terminal);
  for (;;) {
    bool news = false;
    const bool any_running = reap_finished(children, someone_died);
    if (someone_died && !death_seen) {
      death_seen = true;
      last_news = Clock::now();
    }
    for (RankChild& c : children) {
      const std::string path = rank_results_path(work_dir, c.exit.rank);
      const off_t size = file_size(path);
      if (size == c.reported_bytes) continue;
      c.reported_bytes = size;
      last_news = Clock::now();
      news = true;
      if (meter) show_progress(*meter, c.exit.rank, path, children.size(), shown);
    }
    if (news && on_news) on_news();
    if (!any_running) break;
    const Seconds allowed = timeout + (someone_died ? kAfterDeathGrace : kSilenceFloor);
    const int stop = interrupt_signal();
    if (stop != 0 || Clock::now() - last_news > allowed) {
      // Stopped by the user: every rank ends now; the cases all of them finished are kept.
      const std::string why = stop != 0 ? "stopped on " + interrupt_name(stop)
                                        : "no rank reported anything for " + seconds_text(allowed);
      kill_running(children, why);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (meter) meter->finish();
}

// One write(2) per line, as soon as it exists: a process killed a moment later has left it in the
// file (at worst the last line is cut short, which the merge skips and counts).
LineFile::LineFile(const std::string& path)
    : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) {
  if (fd_ < 0) P2P_CHECK_POSIX(fd_);
}

LineFile::~LineFile() { ::close(fd_); }

void LineFile::write(const std::string& line) {
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) P2P_CHECK_POSIX(n);
    done += static_cast<std::size_t>(n);
  }
}

ncclUniqueId read_unique_id(int fd, const std::string& subcommand) {
  ncclUniqueId id{};
  auto* bytes = reinterpret_cast<char*>(&id);
  std::size_t got = 0;
  while (got < sizeof(id)) {
    const ssize_t n = ::read(fd, bytes + got, sizeof(id) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw InputError(subcommand + ": standard input ended after " + std::to_string(got) +
                       " of the " + std::to_string(sizeof(id)) +
                       " bytes of the NCCL unique id (this subcommand is started by "
                       "p2pcheck itself)");
    }
    got += static_cast<std::size_t>(n);
  }
  return id;
}

void stop_on_sigterm() {
  struct sigaction sa {};
  sa.sa_handler = [](int) { request_stop(); };
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace p2p::nccl
