// The parent side of one measured group: starts one `p2pcheck infer-rank` process per rank
// (nccl/run/rank_spawn.hpp), watches them with the deadline, and merges what they wrote into the
// group's results and its CUDA IPC pairs.
#pragma once

#include <vector>

#include "infer/rank_job.hpp"
#include "infer/results.hpp"
#include "nccl/run/runner.hpp"

namespace p2p::infer {

struct GroupOutcome {
  GroupRun run;
  std::vector<IpcPairResult> ipc;  // empty when the job did not check
};

// `job` without work_dir (a private directory is made here); `gpu_ids` name the ranks' GPUs in
// the IPC pairs. Only the p2pcheck executable can do this: the ranks run its hidden subcommand.
GroupOutcome run_group(InferRankJob job, const std::vector<int>& gpu_ids, int calls_per_step,
                       const nccl::Progress& progress);

}  // namespace p2p::infer
