// The parent half of rank_process.hpp: start the rank processes, watch them with a deadline,
// merge what they wrote.
#include <functional>
#include <set>

#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "common/temp_dir.hpp"
#include "nccl/benchmark_registration.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/rank_spawn.hpp"
#include "nccl/run/run_options_json.hpp"
#include "nccl/transport_log.hpp"

namespace p2p::nccl {

namespace {

Measurement measurement_of(const MergedCase& m) {
  Measurement meas;
  meas.status = m.status;
  meas.detail = m.detail;
  meas.time_us = m.time_us;
  meas.sample_us = m.sample_us;
  meas.wrong_elements = m.wrong_elements;
  return meas;
}

}  // namespace

doc::NcclRun run_rank_processes(const RunOptions& o, const RankPlacement& placement,
                                const Progress& progress) {
  const int n = placement.nranks;
  const std::vector<PlannedCase> plan =
      selected_plan(o, n);  // a bad filter stops here, before any process
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

  std::vector<RankChild> children = spawn_ranks(
      n,
      [&](int r) {
        return std::vector<std::string>{"nccl-rank", "--options", job_path, "--rank",
                                        std::to_string(r)};
      },
      id);
  std::vector<MergeCase> merge_plan;
  for (const PlannedCase& c : plan)
    merge_plan.push_back({benchmark_name(c), participants(c.op, n)});
  const auto read_logs = [&] {
    std::vector<RankLog> logs;
    for (const RankChild& c : children)
      logs.push_back(parse_rank_log(
          c.exit.rank,
          try_read_text_file(rank_results_path(work.path(), c.exit.rank)).value_or("")));
    return logs;
  };
  const auto exits_now = [&] {
    std::vector<RankExit> exits;
    for (const RankChild& c : children) exits.push_back(c.exit);
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
    tell(cases_every_rank_finished(merge_plan, logs,
                                   merge_rank_logs(merge_plan, logs, exits_now()).cases));
  };
  watch_ranks(children, work.path(), o.measure.timeout, plan.size(), progress, on_news);

  const std::vector<RankLog> logs = read_logs();
  const std::vector<RankExit> exits = exits_now();
  std::string nccl_log;
  for (const RankChild& c : children)
    nccl_log += try_read_text_file(rank_nccl_log_path(work.path(), c.exit.rank)).value_or("");
  MergedRun merged = merge_rank_logs(merge_plan, logs, exits);
  // A case some ranks had not finished when the run was stopped was not measured, not failed.
  if (interrupt_signal() != 0)
    merged.cases = cases_every_rank_finished(merge_plan, logs, merged.cases);

  doc::NcclRun run;
  run.p2p_disabled = o.p2p_disabled;
  EnvMap ours = nccl_settings(o.nccl_log_path, o.p2p_disabled);
  if (placement.shares_device)
    ours["NCCL_HOSTID"] = "p2pcheck-host-<rank / devices> (per rank process)";
  run.environment = describe_environment(api, rank_devices(placement), user, ours);
  run.environment.rank_processes = true;
  run.environment.buffer_allocator = merged.buffer_allocator.value_or("");
  for (doc::DeviceRecord& d : run.environment.devices) {
    const auto r = static_cast<std::size_t>(d.rank);
    d.pid = children[r].exit.pid;
    d.host_id = placement.ranks[r].host_id;
  }
  for (const MergedCase& m : merged.cases)
    run.results.push_back(
        make_result(plan[static_cast<std::size_t>(m.index)], n, measurement_of(m), o));
  tell(merged.cases);  // those that ended the run (a hang, a dead rank) and any not told yet
  run.rank_process_ends = merged.ends;
  run.warnings = merged.warnings;
  if (!o.nccl_log_path.empty()) write_text_file_atomically(o.nccl_log_path, nccl_log);
  run.transport = transport_matrix(parse_nccl_log(nccl_log), n);
  return run;
}

}  // namespace p2p::nccl
