#include "nccl/rank_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <sstream>
#include <thread>

#include "common/cuda_check.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "nccl/harness.hpp"
#include "nccl/json_util.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run_options_json.hpp"

namespace p2p::nccl {

namespace {

// The rank's results file: each line goes out with one write(2) as soon as it exists, so a
// process killed a moment later has left it in the file (at worst the last line is cut short,
// which the merge skips and counts).
class LineFile {
 public:
  explicit LineFile(const std::string& path) : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) {
    if (fd_ < 0) P2P_CHECK_POSIX(fd_);
  }
  ~LineFile() { ::close(fd_); }
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;
  void write(const std::string& line) {
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) P2P_CHECK_POSIX(n);
      done += static_cast<std::size_t>(n);
    }
  }

 private:
  int fd_;
};

ncclUniqueId read_unique_id(int fd) {
  ncclUniqueId id{};
  auto* bytes = reinterpret_cast<char*>(&id);
  std::size_t got = 0;
  while (got < sizeof(id)) {
    const ssize_t n = ::read(fd, bytes + got, sizeof(id) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw InputError("nccl-rank: standard input ended after " + std::to_string(got) + " of the " +
                       std::to_string(sizeof(id)) + " bytes of the NCCL unique id (this subcommand is started by "
                       "`p2pcheck nccl`)");
    }
    got += static_cast<std::size_t>(n);
  }
  return id;
}

bool takes_part(const PlannedCase& c, int rank, int nranks) {
  const auto p = participants(c.op, nranks);
  return std::find(p.begin(), p.end(), rank) != p.end();
}

int stop_code(const std::string& status) { return status == "hang" ? kExitHang : kExitRuntime; }

// The parent sends SIGTERM when another rank process has ended (see request_stop()).
void stop_on_sigterm() {
  struct sigaction sa {};
  sa.sa_handler = [](int) { request_stop(); };
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGTERM, &sa, nullptr);
}

// The stall hook (see the header): silent, but ends early when the parent asks everyone to stop.
void stall(std::chrono::duration<double> how_long) {
  const auto until = std::chrono::steady_clock::now() + how_long;
  while (std::chrono::steady_clock::now() < until && !stop_requested()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

RankEndLine stopped(int rank, const std::string& where) {
  return RankEndLine{rank, "stopped", "stopped " + where + " because another rank process ended; communicator aborted"};
}

// How long a rank waits at the barrier before a case for the others to arrive: they may still be
// in the previous case, whose three waits (verification, warm-up, timed) each have the timeout,
// or in NCCL's setup; past that they are stuck, not busy.
std::chrono::duration<double> barrier_deadline(const MeasureOptions& o) {
  return 3 * o.timeout + std::chrono::duration<double>(60.0);
}

std::string seconds(std::chrono::duration<double> s) {
  std::ostringstream out;
  out << s.count() << " s";
  return out.str();
}

}  // namespace

void to_json(nlohmann::json& j, const RankJob& job) {
  j = {{"schema", "p2pcheck.nccl_rank_job"}, {"version", 1}, {"run", job.run}, {"work_dir", job.work_dir}};
}

void from_json(const nlohmann::json& j, RankJob& job) {
  require_schema(j, "p2pcheck.nccl_rank_job", 1);
  job.run = j.at("run").get<RunOptions>();
  job.work_dir = j.at("work_dir").get<std::string>();
}

std::string rank_results_path(const std::string& work_dir, int rank) {
  return work_dir + "/rank" + std::to_string(rank) + ".jsonl";
}

std::string rank_nccl_log_path(const std::string& work_dir, int rank) {
  return work_dir + "/rank" + std::to_string(rank) + ".nccl.log";
}

std::optional<int> kill_after_cases(const char* hook, int rank) {
  if (hook == nullptr) return std::nullopt;
  const std::string text(hook);
  const auto colon = text.find(':');
  if (colon == std::string::npos) return std::nullopt;
  try {
    std::size_t used = 0;
    const int who = std::stoi(text.substr(0, colon), &used);
    if (used != colon || who != rank) return std::nullopt;
    const std::string count = text.substr(colon + 1);
    const int cases = std::stoi(count, &used);
    if (used != count.size() || cases < 0) return std::nullopt;
    return cases;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

int run_rank_process(const std::string& job_path, int rank) {
  const RankJob job = read_json_file(job_path).get<RankJob>();
  const RunOptions& o = job.run;
  const RankPlacement placement = place_ranks(o.nranks, o.devices);
  if (rank < 0 || rank >= placement.nranks) {
    throw InputError("nccl-rank: --rank " + std::to_string(rank) + " is not a rank of " +
                     std::to_string(placement.nranks));
  }
  const RankSlot& slot = placement.ranks[static_cast<std::size_t>(rank)];
  const ncclUniqueId id = read_unique_id(STDIN_FILENO);

  // Before NCCL's first call: it reads these once per process.
  EnvMap ours = nccl_settings(rank_nccl_log_path(job.work_dir, rank), o.p2p_disabled);
  if (!slot.host_id.empty()) ours["NCCL_HOSTID"] = slot.host_id;
  apply_environment(ours);
  const std::vector<PlannedCase> plan = selected_plan(o, o.nranks);
  const std::optional<int> kill_at = kill_after_cases(std::getenv("P2P_TEST_KILL_RANK"), rank);
  const std::optional<int> stall_at = kill_after_cases(std::getenv("P2P_TEST_STALL_RANK"), rank);

  LineFile out(rank_results_path(job.work_dir, rank));
  stop_on_sigterm();
  // A parent that ended at once (a second SIGINT/SIGTERM, a SIGKILL) takes its ranks with it:
  // with no one left to merge their lines, they would only hold the GPU.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return kExitRuntime;  // it ended before we asked
  try {
    const NcclApi& api = nccl_api();
    P2P_CHECK(cudaSetDevice(slot.device));
    Clique clique(api, rank, o.nranks, slot.device, id, o.measure.timeout);
    RankBuffers buffers = allocate_buffers(clique, buffer_bytes(plan), o.buffers);
    out.write(to_line(RankReadyLine{rank, static_cast<int>(::getpid()), buffers.allocator}));

    // As the in-process sweep: every operation once at its largest size before any timing.
    // Every rank before every warm-up and case, participating or not (see barrier()). 0 when all
    // came; else the end line is written and this is the exit code.
    const auto meet = [&](const std::string& before) {
      try {
        if (barrier(clique, buffers, barrier_deadline(o.measure))) return 0;
      } catch (const ApiError& e) {
        clique.abort();
        out.write(to_line(RankEndLine{rank, "error", "waiting for the other ranks before " + before + ": " + e.what()}));
        return static_cast<int>(kExitRuntime);
      }
      if (stop_requested()) {
        out.write(to_line(stopped(rank, "before " + before)));
        return static_cast<int>(kExitRuntime);
      }
      out.write(to_line(RankEndLine{rank, "hang",
                                    "the other ranks did not reach " + before + " within " +
                                        seconds(barrier_deadline(o.measure)) + "; communicator aborted"}));
      return static_cast<int>(kExitHang);
    };
    for (const PlannedCase& c : largest_per_operation(plan)) {
      if (const int stop = meet("the warm-up of " + benchmark_name(c))) return stop;
      if (!takes_part(c, rank, o.nranks)) continue;
      std::string failure;
      try {
        if (!warm_up(clique, buffers, c.op, c.shape, o.measure)) failure = "hang";
      } catch (const ApiError& e) {
        clique.abort();
        out.write(to_line(RankEndLine{rank, "error", "warm-up of " + benchmark_name(c) + ": " + e.what()}));
        return kExitRuntime;
      }
      if (!failure.empty() && stop_requested()) {
        out.write(to_line(stopped(rank, "in the warm-up of " + benchmark_name(c))));
        return kExitRuntime;
      }
      if (!failure.empty()) {
        out.write(to_line(RankEndLine{rank, "hang",
                                      "no completion within " + seconds(o.measure.timeout) + " in the warm-up of " +
                                          benchmark_name(c) + "; communicator aborted"}));
        return kExitHang;
      }
      out.write(progress_line(rank, "warm-up " + benchmark_name(c)));
    }

    for (std::size_t i = 0; i < plan.size(); ++i) {
      if (kill_at && static_cast<std::size_t>(*kill_at) == i) std::raise(SIGKILL);  // test hook, see header
      const PlannedCase& c = plan[i];
      if (const int stop = meet(benchmark_name(c))) return stop;
      if (!takes_part(c, rank, o.nranks)) continue;
      if (stall_at && static_cast<std::size_t>(*stall_at) == i) stall(2 * o.measure.timeout);  // test hook
      Measurement m;
      try {
        m = measure(clique, buffers, c.op, c.shape, c.in_place, o.measure);
      } catch (const ApiError& e) {
        m = Measurement{};
        m.status = "error";
        m.detail = e.what();
        clique.abort();
      }
      if (m.status == "hang" && stop_requested()) {  // cut short, not measured: no line for it
        out.write(to_line(stopped(rank, "in " + benchmark_name(c))));
        return kExitRuntime;
      }
      RankCaseLine line;
      line.case_name = benchmark_name(c);
      line.index = static_cast<int>(i);
      line.rank = rank;
      line.status = m.status;
      line.detail = m.detail;
      line.sample_us = m.sample_us;
      line.wrong_elements = m.wrong_elements;
      out.write(to_line(line));
      if (m.status == "hang" || m.status == "error") {
        // The communicator is aborted and cannot be formed again without the other ranks.
        out.write(to_line(RankEndLine{rank, m.status, line.case_name + ": " + m.detail + "; sweep stopped"}));
        return stop_code(m.status);
      }
    }
    out.write(to_line(RankEndLine{rank, "done", ""}));
  } catch (const std::exception& e) {
    out.write(to_line(RankEndLine{rank, "error", e.what()}));
    throw;  // main prints it and exits kExitRuntime (or the code of its kind)
  }
  return kExitOk;
}

}  // namespace p2p::nccl
