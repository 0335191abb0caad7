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
#include "nccl/run/merged_run.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/rank_spawn.hpp"
#include "nccl/run/run_options_json.hpp"
#include "nccl/transport_log.hpp"

namespace p2p::nccl {

namespace {

// The rank processes of one sweep, and what each has written so far into `dir`.
struct RankGroup {
  std::string dir;
  std::vector<RankChild> children;
  std::vector<RankLogReader> readers;  // one per child, reading its file as it grows

  // Every rank's log so far; `final` once every process has ended (a cut last line counts).
  std::vector<RankLog> logs(bool final = false) {
    if (readers.empty())
      for (const RankChild& c : children)
        readers.emplace_back(c.exit.rank, rank_results_path(dir, c.exit.rank));
    std::vector<RankLog> out;
    for (RankLogReader& r : readers) out.push_back(r.read(final));
    return out;
  }
  std::vector<RankExit> exits() const {
    std::vector<RankExit> out;
    for (const RankChild& c : children) out.push_back(c.exit);
    return out;
  }
  std::string nccl_logs() const {
    std::string out;
    for (const RankChild& c : children)
      out += try_read_text_file(rank_nccl_log_path(dir, c.exit.rank)).value_or("");
    return out;
  }
};

// Writes the job every rank reads, then starts ranks 0..n-1 of it in `work`, each handed the
// communicator's unique id (whose creation also starts NCCL's rendezvous root here).
RankGroup start_ranks(const RunOptions& o, const RankPlacement& placement, const TempDir& work) {
  RankJob job;
  job.run = o;
  job.run.devices = placement.devices;
  job.run.nranks = placement.nranks;
  job.run.rank_processes = true;
  job.work_dir = work.path();
  const std::string job_path = work.path() + "/job.json";
  write_text_file_atomically(job_path, json_text(nlohmann::json(job)) + "\n");
  ncclUniqueId id{};
  P2P_CHECK(nccl_api().get_unique_id(&id));
  RankGroup group{work.path(), {}, {}};
  group.children = spawn_ranks(
      placement.nranks,
      [&](int r) {
        return std::vector<std::string>{"nccl-rank", "--options", job_path, "--rank",
                                        std::to_string(r)};
      },
      id);
  return group;
}

// --jsonl: each case the moment every rank taking part has finished it, not at the end, so that
// a run killed halfway still leaves its results behind; each case once.
class ResultTeller {
 public:
  ResultTeller(const RunOptions& o, const std::vector<PlannedCase>& plan, int nranks)
      : o_(o), plan_(plan), nranks_(nranks) {}
  void tell(const std::vector<MergedCase>& cases) {
    if (!o_.on_result) return;
    for (const MergedCase& m : cases) {
      if (told_.insert(m.index).second) o_.on_result(merged_result(o_, plan_, nranks_, m));
    }
  }

 private:
  const RunOptions& o_;
  const std::vector<PlannedCase>& plan_;
  int nranks_;
  std::set<int> told_;
};

// Versions and variables as this process sees them, and each rank's process and NCCL host.
doc::NcclEnvironment rank_environment(const RunOptions& o, const RankPlacement& placement,
                                      const EnvMap& user, const RankGroup& group) {
  EnvMap ours = nccl_settings(o.nccl_log_path, o.p2p_disabled);
  if (placement.shares_device)
    ours["NCCL_HOSTID"] = "p2pcheck-host-<rank / devices> (per rank process)";
  doc::NcclEnvironment env = describe_environment(nccl_api(), rank_devices(placement), user, ours);
  for (doc::DeviceRecord& d : env.devices) {
    const auto r = static_cast<std::size_t>(d.rank);
    d.pid = group.children[r].exit.pid;
    d.host_id = placement.ranks[r].host_id;
  }
  return env;
}

}  // namespace

doc::NcclRun run_rank_processes(const RunOptions& o, const RankPlacement& placement,
                                const Progress& progress) {
  const int n = placement.nranks;
  const std::vector<PlannedCase> plan =
      selected_plan(o, n);  // a bad filter stops here, before any process
  const EnvMap user = nccl_variables(current_environment());
  TempDir work("p2pcheck-nccl-ranks");
  RankGroup group = start_ranks(o, placement, work);

  std::vector<MergeCase> merge_plan;
  for (const PlannedCase& c : plan)
    merge_plan.push_back({benchmark_name(c), participants(c.op, n)});
  ResultTeller teller(o, plan, n);
  const auto on_news = [&] {
    if (!o.on_result) return;
    const std::vector<RankLog> logs = group.logs();
    teller.tell(cases_every_rank_finished(merge_plan, logs,
                                          merge_rank_logs(merge_plan, logs, group.exits()).cases));
  };
  watch_ranks(group.children, group.dir, o.measure.timeout, plan.size(), progress, on_news);

  const std::vector<RankLog> logs = group.logs(true);
  MergedRun merged = merge_rank_logs(merge_plan, logs, group.exits());
  // A case some ranks had not finished when the run was stopped was not measured, not failed.
  if (interrupt_signal() != 0)
    merged.cases = cases_every_rank_finished(merge_plan, logs, merged.cases);
  teller.tell(merged.cases);  // those that ended the run (a hang, a dead rank), any not told yet

  doc::NcclRun run;
  run.p2p_disabled = o.p2p_disabled;
  run.environment = rank_environment(o, placement, user, group);
  add_merged_ranks(run, o, plan, n, merged);
  const std::string nccl_log = group.nccl_logs();
  if (!o.nccl_log_path.empty()) write_text_file_atomically(o.nccl_log_path, nccl_log);
  run.transport = transport_matrix(parse_nccl_log(nccl_log), n);
  return run;
}

}  // namespace p2p::nccl
