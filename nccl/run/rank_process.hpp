// Ranks as processes: one process per rank, so that several ranks can share one GPU (NCCL
// allows that only across processes of different hosts, see placement.hpp) and so that a sweep
// on a one-GPU host still measures n > 1 ranks, the per-pair matrix and the transports.
//
// The parent (`p2pcheck nccl`) asks NCCL for the communicator's unique id, writes the run
// options as JSON into a private directory, and starts one `p2pcheck nccl-rank --options FILE
// --rank R` per rank, handing each the id on its standard input (never on a command line). Each
// rank process sets its own NCCL environment, joins the communicator (ncclCommInitRank), runs
// the same planned cases in the same order as the in-process sweep (skipping send/recv pairs it
// is not part of), and appends one line per case to its results file (rank_merge.hpp). Every
// rank meets the others (a one-element all_reduce) before each warm-up and case, so no rank
// starts a deadline while a peer is still busy with a pair it has no part in.
//
// A rank that misses --timeout aborts its communicator and stops: without the others it cannot
// form a new one. The others then miss their next collective and stop the same way. The parent
// never waits forever: when no rank has written a line for the timeout plus 60 s (the timeout
// plus 5 s once a rank has died) it kills those left and reports each by rank.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "nccl/placement.hpp"
#include "nccl/run/runner.hpp"

namespace p2p::nccl {

// What a rank process reads from --options: the sweep (devices resolved, nranks set) and the
// directory where every rank writes its results and NCCL log.
struct RankJob {
  RunOptions run;
  std::string work_dir;
};
void to_json(nlohmann::json& j, const RankJob& job);
void from_json(const nlohmann::json& j, RankJob& job);

std::string rank_results_path(const std::string& work_dir, int rank);   // <dir>/rank<R>.jsonl
std::string rank_nccl_log_path(const std::string& work_dir, int rank);  // <dir>/rank<R>.nccl.log

// Test-only hooks, read in rank processes only, each "<rank>:<cases>": the case index for
// `rank`, or nullopt (unset, another rank, malformed).
// P2P_TEST_KILL_RANK: that rank kills itself with SIGKILL once it has finished the first <cases>
// cases of the plan, so the GPU tests can see a rank die mid-sweep.
// P2P_TEST_STALL_RANK: that rank stops answering in case <cases> (after the meeting before it)
// for twice the timeout, so the others miss their deadline there: a real hang across processes,
// each of which must abort its communicator.
std::optional<int> kill_after_cases(const char* hook, int rank);

// The parent: runs `options` with one process per rank as `placement` says and merges what they
// wrote into one run (results in plan order, per-rank environment, transport matrix from every
// rank's NCCL log). Writes the concatenated NCCL logs to options.nccl_log_path.
doc::NcclRun run_rank_processes(const RunOptions& options, const RankPlacement& placement,
                                const Progress& progress);

// The hidden `nccl-rank` subcommand: rank `rank` of the job in `job_path`, the unique id on
// standard input. Returns the exit code: 0 when its sweep ran to the end, kExitHang or
// kExitRuntime when it stopped.
int run_rank_process(const std::string& job_path, int rank);

}  // namespace p2p::nccl
