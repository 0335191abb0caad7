#include "nccl/run/rank_process.hpp"

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
#include "nccl/benchmark_registration.hpp"
#include "nccl/json_util.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/rank_spawn.hpp"
#include "nccl/run/rank_sweep.hpp"
#include "nccl/run/run_options_json.hpp"

namespace p2p::nccl {

void to_json(nlohmann::json& j, const RankJob& job) {
  j = {{"schema", "p2pcheck.nccl_rank_job"},
       {"version", 1},
       {"run", job.run},
       {"work_dir", job.work_dir}};
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
  const RankJob job =
      load_json_file(job_path, [](const nlohmann::json& j) { return j.get<RankJob>(); });
  const RunOptions& o = job.run;
  const RankPlacement placement = place_ranks(o.nranks, o.devices);
  if (rank < 0 || rank >= placement.nranks) {
    throw InputError("nccl-rank: --rank " + std::to_string(rank) + " is not a rank of " +
                     std::to_string(placement.nranks));
  }
  const RankSlot& slot = placement.ranks[static_cast<std::size_t>(rank)];
  // The bootstrap of a rank process: its one rank and device from the placement, the unique id
  // from the parent's pipe.
  RankStart start;
  start.reporter = rank;
  start.nranks = o.nranks;
  start.ranks = {rank};
  start.devices = {slot.device};
  start.id = read_unique_id(STDIN_FILENO, "nccl-rank");

  // Before NCCL's first call: it reads these once per process.
  EnvMap ours = nccl_settings(rank_nccl_log_path(job.work_dir, rank), o.p2p_disabled);
  if (!slot.host_id.empty()) ours["NCCL_HOSTID"] = slot.host_id;
  apply_environment(ours);
  const std::vector<PlannedCase> plan = selected_plan(o, o.nranks);
  RankHooks hooks;
  hooks.kill_before_step = kill_after_cases(std::getenv("P2P_TEST_KILL_RANK"), rank);
  hooks.stall_in_step = kill_after_cases(std::getenv("P2P_TEST_STALL_RANK"), rank);

  LineFile out(rank_results_path(job.work_dir, rank));
  stop_on_sigterm();
  // A parent that ended at once (a second SIGINT/SIGTERM, a SIGKILL) takes its ranks with it:
  // with no one left to merge their lines, they would only hold the GPU.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return kExitRuntime;  // it ended before we asked
  return run_rank_sweep(
      o, start, largest_per_operation(plan), one_case_per_step(plan),
      [&out](const std::string& line) { out.write(line); }, hooks);
}

}  // namespace p2p::nccl
