#include "nccl/mpi_merge.hpp"

#include <algorithm>
#include <cmath>

#include "nccl/collective.hpp"
#include "nccl/json_util.hpp"
#include "nccl/op_spec.hpp"
#include "nccl/transport_log.hpp"

namespace p2p::nccl {

void to_json(nlohmann::json& j, const ProcessReport& r) {
  j = {{"schema", "p2pcheck.nccl_process_report"},
       {"version", 1},
       {"process", r.process},
       {"pid", r.pid},
       {"exit_code", r.exit_code},
       {"devices", r.devices},
       {"nccl_log", r.nccl_log}};
}

void from_json(const nlohmann::json& j, ProcessReport& r) {
  require_schema(j, "p2pcheck.nccl_process_report", 1);
  r.process = integer_at(j, "process", 0, kMaxRanks - 1);
  r.pid = value_at<int>(j, "pid");
  r.exit_code = value_at<int>(j, "exit_code");
  r.devices = j.at("devices").get<std::vector<doc::DeviceRecord>>();
  r.nccl_log = j.at("nccl_log").get<std::string>();
}

namespace {

std::string seconds_text(double s) { return std::to_string(std::llround(s)) + " s"; }

const MergedCase* merged_case(const MergedRun& m, int index) {
  for (const auto& c : m.cases) {
    if (c.index == index) return &c;
  }
  return nullptr;
}

// Each process's streamed lines merged per case, with how it ended as far as rank 0 knows: by
// its report, else that nothing reached rank 0 before the deadline.
MergedRun merged_processes(const RankLayout& layout, const std::vector<StepCase>& cases,
                           const std::vector<std::string>& lines,
                           const std::vector<std::optional<ProcessReport>>& reports,
                           double deadline_s) {
  const int processes = static_cast<int>(layout.processes.size());
  std::vector<MergeCase> plan;
  for (const StepCase& c : cases) {
    plan.push_back({c.name, processes_of(layout, participants(c.planned.op, layout.nranks))});
  }
  std::vector<RankLog> logs;
  std::vector<RankExit> exits;
  for (int p = 0; p < processes; ++p) {
    const auto k = static_cast<std::size_t>(p);
    RankLog log = parse_rank_log(p, k < lines.size() ? lines[k] : "");
    RankExit e;
    e.rank = p;
    e.pid = log.ready ? log.ready->pid : 0;
    const std::optional<ProcessReport>* report = k < reports.size() ? &reports[k] : nullptr;
    if (report != nullptr && report->has_value()) {
      e.pid = (*report)->pid;
      e.exit_code = (*report)->exit_code;
    } else {
      e.no_result = true;
      e.why_killed = "nothing reached rank 0 within " + seconds_text(deadline_s) + " on " +
                     layout.processes[k].hostname;
    }
    logs.push_back(std::move(log));
    exits.push_back(std::move(e));
  }
  return merge_rank_logs(plan, logs, exits);
}

// Devices by NCCL rank: as each process described its own, else what the layout knows.
std::vector<doc::DeviceRecord> devices_by_rank(
    const RankLayout& layout, const std::vector<std::optional<ProcessReport>>& reports) {
  std::vector<doc::DeviceRecord> out;
  for (int r = 0; r < layout.nranks; ++r) {
    const int p = layout.rank_process[static_cast<std::size_t>(r)];
    const ProcessSlot& slot = layout.processes[static_cast<std::size_t>(p)];
    doc::DeviceRecord d;
    d.rank = r;
    d.cuda_device = slot.devices[static_cast<std::size_t>(r - slot.first_rank)];
    d.host_id = slot.host_id;
    const auto& report = reports.size() > static_cast<std::size_t>(p)
                             ? reports[static_cast<std::size_t>(p)]
                             : std::optional<ProcessReport>();
    if (report) {
      for (const doc::DeviceRecord& mine : report->devices) {
        if (mine.rank == r) d = mine;
      }
    }
    d.hostname = slot.hostname;
    out.push_back(std::move(d));
  }
  return out;
}

// One host pair's case as the cluster document holds it, from the case's merged result.
doc::HostPairResult host_pair_result(const HostPairCase& hp, const MergedCase& m) {
  doc::HostPairResult r;
  r.src_host = hp.src_host;
  r.dst_host = hp.dst_host;
  r.src_rank = hp.step_case.planned.op.src_rank;
  r.dst_rank = hp.step_case.planned.op.dst_rank;
  r.round = hp.round;
  r.size_bytes = hp.step_case.planned.shape.size_bytes;
  r.status = m.status;
  r.detail = m.detail;
  r.time_us = m.time_us;
  r.wrong_elements = m.wrong_elements;
  if (m.time_us && *m.time_us > 0.0) {
    r.algbw_gbps = algbw_gbps(hp.step_case.planned.shape.algbw_bytes, *m.time_us * 1e-6);
  }
  return r;
}

// The cluster document: hosts, ranks, the host transport matrix and the host pairs reached.
doc::NcclCluster cluster_of(const ClusterMerge& merge, const RankLayout& layout,
                            const std::vector<std::vector<HostPairCase>>& host_steps,
                            const std::string& launch) {
  doc::NcclCluster c;
  c.launch = launch;
  c.processes = static_cast<int>(layout.processes.size());
  c.hosts = layout.hosts;
  for (int r = 0; r < layout.nranks; ++r) {
    const int p = layout.rank_process[static_cast<std::size_t>(r)];
    c.ranks.push_back({r, p, layout.rank_host[static_cast<std::size_t>(r)],
                       layout.processes[static_cast<std::size_t>(p)].hostname});
  }
  c.host_transport = doc::host_transport_matrix(merge.transport, layout.rank_host,
                                                static_cast<int>(layout.hosts.size()));
  for (const auto& step : host_steps) {
    for (const HostPairCase& hp : step) {
      const MergedCase* m = merged_case(merge.merged, hp.step_case.index);
      if (m == nullptr) continue;  // never reached: not invented
      c.host_pairs.push_back(host_pair_result(hp, *m));
    }
  }
  return c;
}

}  // namespace

ClusterMerge merge_cluster(const RankLayout& layout, const std::vector<StepCase>& cases,
                           const std::vector<std::vector<HostPairCase>>& host_steps,
                           const std::vector<std::string>& lines,
                           const std::vector<std::optional<ProcessReport>>& reports,
                           double deadline_s, const std::string& launch) {
  ClusterMerge out;
  out.merged = merged_processes(layout, cases, lines, reports, deadline_s);
  out.devices = devices_by_rank(layout, reports);
  NcclLog log;
  for (const auto& report : reports) {
    if (!report) continue;
    out.nccl_log += report->nccl_log;
    merge_nccl_log(log, parse_nccl_log(report->nccl_log));
  }
  out.transport = transport_matrix(log, layout.nranks);
  out.cluster = cluster_of(out, layout, host_steps, launch);
  return out;
}

}  // namespace p2p::nccl
