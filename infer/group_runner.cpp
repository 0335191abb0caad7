#include "infer/group_runner.hpp"

#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/temp_dir.hpp"
#include "infer/group_merge.hpp"
#include "infer/ipc_merge.hpp"
#include "nccl/run/nccl_api.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/rank_spawn.hpp"

namespace p2p::infer {

GroupOutcome run_group(InferRankJob job, const std::vector<int>& gpu_ids, int calls_per_step,
                       const nccl::Progress& progress) {
  const int n = static_cast<int>(job.devices.size());
  TempDir work("p2pcheck-infer-ranks");
  job.work_dir = work.path();
  const std::string job_path = work.path() + "/job.json";
  write_text_file_atomically(job_path, json_text(nlohmann::json(job)) + "\n");

  ncclUniqueId id{};
  P2P_CHECK(nccl::nccl_api().get_unique_id(&id));
  std::vector<nccl::RankChild> children = nccl::spawn_ranks(
      n,
      [&](int r) {
        return std::vector<std::string>{"infer-rank", "--job", job_path, "--rank",
                                        std::to_string(r)};
      },
      id);
  // The IPC check and NCCL's setup come before the first line: the deadline allows for both.
  nccl::watch_ranks(children, work.path(), std::chrono::duration<double>(2 * job.timeout_s),
                    job.messages.size(), progress);

  std::vector<nccl::RankLog> logs;
  std::vector<nccl::RankExit> exits;
  std::vector<IpcLine> ipc_lines;
  for (const nccl::RankChild& c : children) {
    const std::string text =
        try_read_text_file(nccl::rank_results_path(work.path(), c.exit.rank)).value_or("");
    logs.push_back(nccl::parse_rank_log(c.exit.rank, text));
    exits.push_back(c.exit);
    for (IpcLine& l : parse_ipc_lines(text)) ipc_lines.push_back(std::move(l));
  }
  const nccl::MergedRun merged = nccl::merge_rank_logs(merge_plan(job.messages, n), logs, exits);
  GroupOutcome out;
  out.run = group_run_from(job.messages, n, calls_per_step, merged, job.p2p_disabled);
  if (job.ipc_check) out.ipc = merge_ipc(gpu_ids, ipc_lines);
  return out;
}

}  // namespace p2p::infer
