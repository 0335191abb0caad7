// Rank 0 of an MPI run puts the processes' results together: the lines each streamed as it
// went (rank_merge.hpp, `rank` = MPI rank), the report each sent at the end (devices, NCCL
// log, exit code), and, for a process that sent no report within the deadline, what its lines
// say up to where it stopped. Pure, so the CPU tests merge runs with a missing process.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/nccl_cluster.hpp"
#include "document/nccl_run.hpp"
#include "nccl/rank_layout.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/sweep_steps.hpp"

namespace p2p::nccl {

// What every process sends rank 0 once its sweep has ended.
struct ProcessReport {
  int process = 0;  // MPI rank
  int pid = 0;
  int exit_code = 0;                       // of its sweep (run/rank_sweep.hpp)
  std::vector<doc::DeviceRecord> devices;  // one per NCCL rank it drove
  std::string nccl_log;                    // its NCCL INFO log
};
void to_json(nlohmann::json& j, const ProcessReport& r);  // schema p2pcheck.nccl_process_report v1
void from_json(const nlohmann::json& j, ProcessReport& r);

struct ClusterMerge {
  MergedRun merged;  // every case in index order (plan, then host pairs); ends by MPI rank
  std::vector<doc::DeviceRecord>
      devices;           // by NCCL rank; a silent process's ranks with only what the layout knows
  std::string nccl_log;  // the reports' logs, in process order
  doc::TransportMatrix transport;  // rank by rank, from every log
  doc::NcclCluster cluster;
};

// `cases`: every case of the sweep by index (plan first, then host pairs), with its NCCL ranks
// turned into processes for the merge. `lines`: by MPI rank, everything each streamed.
// `reports`: by MPI rank, nullopt for one that sent nothing within `deadline_s`.
ClusterMerge merge_cluster(const RankLayout& layout, const std::vector<StepCase>& cases,
                           const std::vector<std::vector<HostPairCase>>& host_steps,
                           const std::vector<std::string>& lines,
                           const std::vector<std::optional<ProcessReport>>& reports,
                           double deadline_s, const std::string& launch);

}  // namespace p2p::nccl
