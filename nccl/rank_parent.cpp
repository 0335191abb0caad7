// The parent half of rank_process.hpp: start the rank processes, watch them with a deadline,
// merge what they wrote.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <ostream>
#include <set>
#include <thread>

#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "common/spawn_actions.hpp"
#include "nccl/harness.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/rank_process.hpp"
#include "nccl/run_options_json.hpp"

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

// A private directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& stem) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/" + stem + "-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) P2P_CHECK_POSIX(-1);
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Child {
  RankExit exit;
  bool running = true;
  off_t reported_bytes = 0;
};

// Starts rank `rank` with the unique id on its standard input (a pipe written and closed here).
pid_t spawn_rank(const std::string& job_path, int rank, const ncclUniqueId& id) {
  int fds[2] = {-1, -1};
  P2P_CHECK_POSIX(::pipe2(fds, O_CLOEXEC));  // no other rank inherits this pipe
  std::vector<std::string> args = {"p2pcheck", "nccl-rank", "--options", job_path, "--rank", std::to_string(rank)};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  SpawnFileActions actions;
  posix_spawn_file_actions_adddup2(actions.get(), fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", actions.get(), nullptr, argv.data(), environ);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    throw std::runtime_error("cannot start rank process " + std::to_string(rank) + ": " + std::strerror(rc));
  }
  // 128 bytes fit in any pipe buffer: this never blocks, even before the child reads.
  const ssize_t n = ::write(fds[1], &id, sizeof(id));
  ::close(fds[1]);
  if (n != static_cast<ssize_t>(sizeof(id))) ::kill(pid, SIGKILL);  // it would wait for NCCL forever
  return pid;
}

void record_status(Child& c, int status) {
  c.running = false;
  if (WIFEXITED(status)) c.exit.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) c.exit.signal = WTERMSIG(status);
}

off_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

Measurement measurement_of(const MergedCase& m) {
  Measurement meas;
  meas.status = m.status;
  meas.detail = m.detail;
  meas.time_us = m.time_us;
  meas.sample_us = m.sample_us;
  meas.wrong_elements = m.wrong_elements;
  return meas;
}

std::string seconds_text(Seconds s) { return std::to_string(static_cast<long long>(s.count() + 0.5)) + " s"; }

// Waits for every rank process; kills those left when no rank reports for too long, or all of
// them when this process is asked to stop. `on_news` runs whenever a rank wrote something.
void watch(std::vector<Child>& children, const std::string& work_dir, Seconds timeout, std::size_t plan_size,
           const Progress& progress, const std::function<void()>& on_news) {
  using Clock = std::chrono::steady_clock;
  auto last_news = Clock::now();
  bool someone_died = false;
  std::size_t shown = 0;
  for (;;) {
    bool any_running = false;
    bool news = false;
    for (Child& c : children) {
      if (!c.running) continue;
      int status = 0;
      const pid_t got = ::waitpid(c.exit.pid, &status, WNOHANG);
      if (got == c.exit.pid) {
        record_status(c, status);
        if ((c.exit.signal || c.exit.exit_code.value_or(0) != 0) && !someone_died) {
          // The others cannot finish a collective without it: ask them to abort their
          // communicators now (their SIGTERM handler, see request_stop) rather than wait out
          // their deadlines; the silence deadline below still backs that up.
          someone_died = true;
          last_news = Clock::now();
          for (const Child& other : children) {
            if (other.running) ::kill(other.exit.pid, SIGTERM);
          }
        }
        continue;
      }
      any_running = true;
    }
    for (Child& c : children) {
      const std::string path = rank_results_path(work_dir, c.exit.rank);
      const off_t size = file_size(path);
      if (size == c.reported_bytes) continue;
      c.reported_bytes = size;
      last_news = Clock::now();
      news = true;
      if (progress.out == nullptr) continue;
      const RankLog log = parse_rank_log(c.exit.rank, try_read_text_file(path).value_or(""));
      if (log.cases.empty() || static_cast<std::size_t>(log.cases.back().index) < shown) continue;
      shown = static_cast<std::size_t>(log.cases.back().index) + 1;
      *progress.out << (progress.terminal ? "\r\033[K" : "") << progress.label << ": [" << shown << "/" << plan_size
                    << "] " << log.cases.back().case_name << " (" << children.size() << " rank processes)"
                    << (progress.terminal ? "" : "\n") << std::flush;
    }
    if (news) on_news();
    if (!any_running) break;
    const Seconds allowed = timeout + (someone_died ? kAfterDeathGrace : kSilenceFloor);
    const int stop = interrupt_signal();
    if (stop != 0 || Clock::now() - last_news > allowed) {
      // Stopped by the user: every rank ends now; the cases all of them finished are kept.
      const std::string why =
          stop != 0 ? "stopped on " + interrupt_name(stop) : "no rank reported anything for " + seconds_text(allowed);
      for (Child& c : children) {
        if (!c.running) continue;
        ::kill(c.exit.pid, SIGKILL);
        c.exit.killed_by_parent = true;
        c.exit.why_killed = why;
      }
      for (Child& c : children) {
        if (!c.running) continue;
        int status = 0;
        while (::waitpid(c.exit.pid, &status, 0) < 0 && errno == EINTR) {
        }
        record_status(c, status);
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (progress.out != nullptr && progress.terminal) *progress.out << "\n" << std::flush;
}

}  // namespace

NcclRun run_rank_processes(const RunOptions& o, const RankPlacement& placement, const Progress& progress) {
  const int n = placement.nranks;
  const std::vector<PlannedCase> plan = selected_plan(o, n);  // a bad filter stops here, before any process
  const EnvMap user = nccl_variables(current_environment());

  TempDir work("p2pcheck-nccl-ranks");
  RankJob job;
  job.run = o;
  job.run.devices = placement.devices;
  job.run.nranks = n;
  job.run.rank_processes = true;
  job.work_dir = work.path();
  const std::string job_path = work.path() + "/job.json";
  write_text_file_atomically(job_path, json_text(nlohmann::json(job)) + "\n");

  const NcclApi& api = nccl_api();
  ncclUniqueId id{};
  P2P_CHECK(api.get_unique_id(&id));  // also starts NCCL's rendezvous root in this process

  std::vector<Child> children;
  for (int r = 0; r < n; ++r) {
    Child c;
    c.exit.rank = r;
    try {
      c.exit.pid = static_cast<int>(spawn_rank(job_path, r, id));
    } catch (...) {
      for (Child& started : children) ::kill(started.exit.pid, SIGKILL);
      for (Child& started : children) ::waitpid(started.exit.pid, nullptr, 0);
      throw;
    }
    children.push_back(c);
  }
  std::vector<MergeCase> merge_plan;
  for (const PlannedCase& c : plan) merge_plan.push_back({benchmark_name(c), participants(c.op, n)});
  const auto read_logs = [&] {
    std::vector<RankLog> logs;
    for (const Child& c : children)
      logs.push_back(parse_rank_log(c.exit.rank, try_read_text_file(rank_results_path(work.path(), c.exit.rank)).value_or("")));
    return logs;
  };
  const auto exits_now = [&] {
    std::vector<RankExit> exits;
    for (const Child& c : children) exits.push_back(c.exit);
    return exits;
  };
  // --jsonl: each case the moment every rank taking part has finished it, not at the end, so
  // that a run killed halfway still leaves its results behind.
  std::set<int> told;
  const auto tell = [&](const std::vector<MergedCase>& cases) {
    if (!o.on_result) return;
    for (const MergedCase& m : cases) {
      if (!told.insert(m.index).second) continue;
      o.on_result(make_result(plan[static_cast<std::size_t>(m.index)], n, measurement_of(m), o));
    }
  };
  const auto on_news = [&] {
    if (!o.on_result) return;
    const std::vector<RankLog> logs = read_logs();
    tell(cases_every_rank_finished(merge_plan, logs, merge_rank_logs(merge_plan, logs, exits_now()).cases));
  };
  watch(children, work.path(), o.measure.timeout, plan.size(), progress, on_news);

  const std::vector<RankLog> logs = read_logs();
  const std::vector<RankExit> exits = exits_now();
  std::string nccl_log;
  for (const Child& c : children) nccl_log += try_read_text_file(rank_nccl_log_path(work.path(), c.exit.rank)).value_or("");
  MergedRun merged = merge_rank_logs(merge_plan, logs, exits);
  // A case some ranks had not finished when the run was stopped was not measured, not failed.
  if (interrupt_signal() != 0) merged.cases = cases_every_rank_finished(merge_plan, logs, merged.cases);

  NcclRun run;
  run.p2p_disabled = o.p2p_disabled;
  EnvMap ours = nccl_settings(o.nccl_log_path, o.p2p_disabled);
  if (placement.shares_device) ours["NCCL_HOSTID"] = "p2pcheck-host-<rank / devices> (per rank process)";
  run.environment = describe_environment(api, rank_devices(placement), user, ours);
  run.environment.rank_processes = true;
  run.environment.buffer_allocator = merged.buffer_allocator.value_or("");
  for (DeviceRecord& d : run.environment.devices) {
    const auto r = static_cast<std::size_t>(d.rank);
    d.pid = children[r].exit.pid;
    d.host_id = placement.ranks[r].host_id;
  }
  for (const MergedCase& m : merged.cases)
    run.results.push_back(make_result(plan[static_cast<std::size_t>(m.index)], n, measurement_of(m), o));
  tell(merged.cases);  // those that ended the run (a hang, a dead rank) and any not told yet
  run.rank_process_ends = merged.ends;
  run.warnings = merged.warnings;
  if (!o.nccl_log_path.empty()) write_text_file_atomically(o.nccl_log_path, nccl_log);
  run.transport = transport_matrix(parse_nccl_log(nccl_log), n);
  return run;
}

}  // namespace p2p::nccl
