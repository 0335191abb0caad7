#include "nccl/run/mpi_run.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <ostream>
#include <thread>

#include "common/enum_names.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/progress_meter.hpp"
#include "mpi/launch_env.hpp"
#include "nccl/benchmark_registration.hpp"
#include "nccl/mpi_merge.hpp"
#include "nccl/rank_layout.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/merged_run.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/runner.hpp"

namespace p2p::nccl {

namespace {

using Seconds = std::chrono::duration<double>;

// Setting up (MPI start-up, CUDA, NCCL's unique id) legitimately takes seconds on a busy
// node; past this a process is gone or stuck.
constexpr Seconds kSetupDeadline{120.0};
// After the sweep: the others may still be in their last step, whose waits each have the
// timeout, and then stop at a barrier that has a deadline of its own.
Seconds results_deadline(const MeasureOptions& o) { return 4 * o.timeout + Seconds(120.0); }
// Lines a process streamed before its report are normally there already; give stragglers this.
constexpr Seconds kLinesGrace{5.0};

// Why a process cannot start, as the start-up messages carry it; each becomes its typed error
// (and so its exit code) on every process.
enum class SetupFailure { kNone, kNoGpu, kInput, kHang, kRefused };
constexpr EnumNames<SetupFailure, 5> kSetupFailures{{{SetupFailure::kNone, ""},
                                                     {SetupFailure::kNoGpu, "no_gpu"},
                                                     {SetupFailure::kInput, "input"},
                                                     {SetupFailure::kHang, "hang"},
                                                     {SetupFailure::kRefused, "refused"}}};
const char* word(SetupFailure f) { return name_in(kSetupFailures, f); }

// What this process tells rank 0 first: who it is and which GPUs it drives, or why it cannot.
nlohmann::json hello(const RunOptions& o, const MpiOptions& m, int process) {
  nlohmann::json j = {{"process", process}, {"hostname", host_name()},
                      {"host_id", ""},      {"devices", nlohmann::json::array()},
                      {"error", ""},        {"error_kind", word(SetupFailure::kNone)}};
  if (const char* id = std::getenv("NCCL_HOSTID")) j["host_id"] = id;
  try {
    if (m.rank_per_gpu) {
      const int count = visible_device_count();
      j["devices"] = {device_for_local_rank(mpi::launcher_local_rank(mpi::process_environment()),
                                            o.devices, count)};
    } else {
      j["devices"] = select_devices(o.devices);
    }
  } catch (const NoGpuError& e) {
    j["error"] = e.what();
    j["error_kind"] = word(SetupFailure::kNoGpu);
  } catch (const InputError& e) {
    j["error"] = e.what();
    j["error_kind"] = word(SetupFailure::kInput);
  }
  return j;
}

[[noreturn]] void fail(SetupFailure kind, const std::string& what) {
  switch (kind) {
    case SetupFailure::kNoGpu: throw NoGpuError(what);
    case SetupFailure::kInput: throw InputError(what);
    case SetupFailure::kHang: throw HangError(what);
    case SetupFailure::kRefused: throw RunRefused(what);
    case SetupFailure::kNone: break;
  }
  throw std::runtime_error(what);
}

// A kind another process sent: a word this build does not know is a fault of the run.
[[noreturn]] void fail(const nlohmann::json& kind, const std::string& what) {
  const auto k = find_in(kSetupFailures, kind.is_string() ? kind.get<std::string>() : "?");
  fail(k.value_or(SetupFailure::kNone), what);
}

// Rank 0 numbers the ranks from everyone's hello; every process gets the layout, or the first
// reason the run cannot start.
RankLayout agree_on_layout(mpi::Session& s, const RunOptions& o, const MpiOptions& m) {
  const auto hellos = s.gather(0, json_text(hello(o, m, s.rank()), -1), kSetupDeadline);
  nlohmann::json verdict = {{"error", ""},
                            {"error_kind", word(SetupFailure::kNone)},
                            {"processes", nlohmann::json::array()}};
  if (s.rank() == 0 && !m.refusal.empty()) {
    // The first line: the whole message (the gate's reasons) is rank 0's to print.
    verdict["error"] =
        "MPI rank 0 on " + host_name() + ": " + m.refusal.substr(0, m.refusal.find('\n'));
    verdict["error_kind"] = word(SetupFailure::kRefused);
  } else if (s.rank() == 0) {
    for (std::size_t p = 0; p < hellos.size(); ++p) {
      if (!hellos[p]) {
        verdict["error"] = "MPI process " + std::to_string(p) + " did not report within " +
                           std::to_string(static_cast<int>(kSetupDeadline.count())) +
                           " s of start-up";
        verdict["error_kind"] = word(SetupFailure::kHang);
        break;
      }
      const nlohmann::json h =
          parse_own_json(*hellos[p], "MPI process " + std::to_string(p) + " start-up report");
      if (!h.at("error").get<std::string>().empty()) {
        verdict["error"] = "MPI process " + std::to_string(p) + " on " +
                           h.at("hostname").get<std::string>() + ": " +
                           h.at("error").get<std::string>();
        verdict["error_kind"] = h.at("error_kind");
        break;
      }
      verdict["processes"].push_back(h);
    }
  }
  const auto got = s.broadcast(0, json_text(verdict, -1), kSetupDeadline * 2);
  if (!got)
    fail(SetupFailure::kHang, "MPI rank 0 sent no rank layout within " +
                                  std::to_string(static_cast<int>(kSetupDeadline.count() * 2)) +
                                  " s");
  const nlohmann::json v = parse_own_json(*got, "rank layout from MPI rank 0");
  if (!v.at("error").get<std::string>().empty())
    fail(v.at("error_kind"), v.at("error").get<std::string>());
  std::vector<ProcessSlot> slots;
  for (const auto& h : v.at("processes")) {
    ProcessSlot p;
    p.process = h.at("process").get<int>();
    p.hostname = h.at("hostname").get<std::string>();
    p.host_id = h.at("host_id").get<std::string>();
    p.devices = h.at("devices").get<std::vector<int>>();
    slots.push_back(std::move(p));
  }
  return lay_out_ranks(std::move(slots));
}

ncclUniqueId agree_on_unique_id(mpi::Session& s) {
  ncclUniqueId id{};
  std::string bytes;
  if (s.rank() == 0) {
    P2P_CHECK(nccl_api().get_unique_id(&id));  // NCCL's first call here: the environment is set
    bytes.assign(reinterpret_cast<const char*>(&id), sizeof id);
  }
  const auto got = s.broadcast(0, bytes, kSetupDeadline);
  if (!got || got->size() != sizeof id)
    fail(SetupFailure::kHang, "MPI rank 0 sent no NCCL unique id within 120 s");
  std::memcpy(&id, got->data(), sizeof id);
  return id;
}

// Rank 0's view of the streamed lines, by process.
struct Inbox {
  std::vector<std::string> lines;
  std::vector<int> counts;
  void take(mpi::Session& s) {
    for (auto& [source, line] : s.drain()) {
      lines[static_cast<std::size_t>(source)] += line;
      ++counts[static_cast<std::size_t>(source)];
    }
  }
};

// What every process runs, in the same order: the planned cases one per step, then across two
// or more hosts the host-pair rounds (numbered after the plan).
struct MpiSweep {
  std::vector<PlannedCase> plan;
  std::vector<SweepStep> steps;
  std::vector<std::vector<HostPairCase>> host_steps;
  std::vector<StepCase> all_cases;
};

MpiSweep plan_mpi_sweep(const RunOptions& o, const RankLayout& layout, const MpiOptions& m) {
  MpiSweep w;
  w.plan = selected_plan(o, layout.nranks);
  w.steps = one_case_per_step(w.plan);
  if (m.host_pairs) {
    w.host_steps = host_pair_steps(layout, o.dtypes.front(), o.sweep.max_bytes,
                                   static_cast<int>(w.plan.size()));
  }
  for (SweepStep& step : as_steps(w.host_steps)) w.steps.push_back(std::move(step));
  for (const SweepStep& step : w.steps)
    w.all_cases.insert(w.all_cases.end(), step.cases.begin(), step.cases.end());
  return w;
}

// Where this process's lines go as it writes them: to --jsonl, and to rank 0, which keeps its
// own and every line the others streamed, and shows its place in the sweep.
class LineRouter {
 public:
  LineRouter(mpi::Session& s, const RankLayout& layout, const LineSink& each_line,
             const Progress& progress, std::size_t cases)
      : s_(s), layout_(layout), each_line_(each_line) {
    inbox_.lines.assign(layout.processes.size(), "");
    inbox_.counts.assign(layout.processes.size(), 0);
    if (progress.out != nullptr && s.rank() == 0)
      meter_.emplace(*progress.out, progress.label + ": ", cases, progress.terminal);
  }
  void operator()(const std::string& line) {
    each_line_(line);
    if (s_.rank() != 0) {
      s_.post(0, line);
      ++posted_;
      return;
    }
    inbox_.lines[0] += line;
    ++inbox_.counts[0];
    inbox_.take(s_);
    const RankLog mine = parse_rank_log(0, line);
    if (!meter_ || mine.cases.empty()) return;
    // Rank 0's position in the sweep (it sits out host pairs of other hosts).
    meter_->update(static_cast<std::size_t>(mine.cases.back().index) + 1,
                   mine.cases.back().case_name + " (" + std::to_string(layout_.processes.size()) +
                       " MPI processes, " + std::to_string(layout_.hosts.size()) + " hosts)");
  }
  void finish() {
    if (meter_) meter_->finish();
  }
  int posted() const { return posted_; }
  Inbox& inbox() { return inbox_; }

 private:
  mpi::Session& s_;
  const RankLayout& layout_;
  const LineSink& each_line_;
  Inbox inbox_;
  int posted_ = 0;
  std::optional<ProgressMeter> meter_;
};

// This process's share of the sweep; its exit code (its end line says why it stopped).
int sweep_here(const RunOptions& o, const RankStart& start, const MpiSweep& w,
               const LineSink& out) {
  try {
    RankHooks hooks;  // the rank-process test hooks (rank_process.hpp), keyed by MPI rank here
    hooks.kill_before_step = kill_after_cases(std::getenv("P2P_TEST_KILL_RANK"), start.reporter);
    hooks.stall_in_step = kill_after_cases(std::getenv("P2P_TEST_STALL_RANK"), start.reporter);
    return run_rank_sweep(o, start, largest_per_operation(w.plan), w.steps, out, hooks);
  } catch (const HangError&) {
    return kExitHang;  // its end line names it; the others still get this process's report
  } catch (const std::exception&) {
    return kExitRuntime;
  }
}

// What this process sends rank 0 at the end: its devices as NCCL ranks, its NCCL log, its exit.
ProcessReport report_of(const RankStart& start, const ProcessSlot& slot, const EnvMap& user,
                        const EnvMap& ours, const std::string& nccl_log_path, int exit_code) {
  ProcessReport report;
  report.process = start.reporter;
  report.pid = static_cast<int>(::getpid());
  report.exit_code = exit_code;
  try {
    const doc::NcclEnvironment env = describe_environment(nccl_api(), slot.devices, user, ours);
    for (std::size_t k = 0; k < env.devices.size(); ++k) {
      doc::DeviceRecord d = env.devices[k];
      d.rank = start.ranks[k];
      d.pid = report.pid;
      d.host_id = slot.host_id;
      d.hostname = slot.hostname;
      report.devices.push_back(std::move(d));
    }
  } catch (const std::exception&) {
    // A GPU that went away: the merge describes the ranks from the layout instead.
  }
  report.nccl_log = try_read_text_file(nccl_log_path).value_or("");
  return report;
}

// Rank 0: every process's report (nullopt for one that sent none in time), once the lines each
// says it streamed have arrived or a grace has passed; then tells everyone whether to finalise.
std::vector<std::optional<ProcessReport>> reports_on_rank0(
    mpi::Session& s, const std::vector<std::optional<std::string>>& texts, Inbox& inbox) {
  std::vector<std::optional<ProcessReport>> reports;
  std::vector<int> expected_lines(texts.size(), 0);
  for (std::size_t p = 0; p < texts.size(); ++p) {
    if (!texts[p]) {
      reports.emplace_back();
      continue;
    }
    const nlohmann::json j =
        parse_own_json(*texts[p], "MPI process " + std::to_string(p) + " report");
    expected_lines[p] = j.value("lines_posted", 0);
    reports.emplace_back(j.get<ProcessReport>());
  }
  const auto grace_until = std::chrono::steady_clock::now() + kLinesGrace;
  for (;;) {
    inbox.take(s);
    bool all = true;
    for (std::size_t p = 1; p < expected_lines.size(); ++p)
      all = all && inbox.counts[p] >= expected_lines[p];
    if (all || std::chrono::steady_clock::now() > grace_until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  bool everyone = true;
  for (const auto& r : reports) everyone = everyone && r.has_value();
  s.broadcast(0, everyone ? "finalize" : "abandon", Seconds(10.0));
  if (!everyone) s.abandon();
  return reports;
}

// The run's document on rank 0, from every process's lines and report.
doc::NcclRun cluster_run(const RunOptions& o, const MpiOptions& m, const RankLayout& layout,
                         const MpiSweep& w, const Inbox& inbox,
                         const std::vector<std::optional<ProcessReport>>& reports,
                         const EnvMap& user, const EnvMap& ours) {
  const ClusterMerge merged = merge_cluster(layout, w.all_cases, w.host_steps, inbox.lines, reports,
                                            results_deadline(o.measure).count(), m.launch);
  doc::NcclRun run;
  run.p2p_disabled = o.p2p_disabled;
  run.environment = describe_environment(nccl_api(), {}, user, ours);
  run.environment.devices = merged.devices;
  add_merged_ranks(run, o, w.plan, layout.nranks, merged.merged);
  run.transport = merged.transport;
  run.cluster = merged.cluster;
  if (!o.nccl_log_path.empty()) write_text_file_atomically(o.nccl_log_path, merged.nccl_log);
  return run;
}

}  // namespace

MpiOutcome run_nccl_mpi(const RunOptions& o, mpi::Session& s, const MpiOptions& m,
                        const LineSink& each_line, const Progress& progress) {
  const RankLayout layout = agree_on_layout(s, o, m);
  const int me = s.rank();
  const ProcessSlot& slot = layout.processes[static_cast<std::size_t>(me)];

  // Before NCCL's first call (agree_on_unique_id on rank 0, the communicator elsewhere).
  const EnvMap user = nccl_variables(current_environment());
  TempPath log("p2pcheck-nccl-mpi", ".log");
  const EnvMap ours = nccl_settings(log.path(), o.p2p_disabled);
  apply_environment(ours);

  const MpiSweep w = plan_mpi_sweep(o, layout, m);  // the same cases, in the same order, everywhere
  RankStart start;
  start.reporter = me;
  start.nranks = layout.nranks;
  start.ranks = ranks_of_process(layout, me);
  start.devices = slot.devices;
  start.id = agree_on_unique_id(s);

  LineRouter router(s, layout, each_line, progress, w.all_cases.size());
  MpiOutcome outcome;
  outcome.exit_code = sweep_here(o, start, w, [&](const std::string& line) { router(line); });
  router.finish();

  nlohmann::json sent = report_of(start, slot, user, ours, log.path(), outcome.exit_code);
  sent["lines_posted"] = router.posted();
  const auto reports_text = s.gather(0, json_text(sent, -1), results_deadline(o.measure));
  if (me != 0) {
    const auto verdict = s.broadcast(0, "", results_deadline(o.measure) + Seconds(60.0));
    if (!verdict || *verdict != "finalize") s.abandon();
    return outcome;
  }
  const auto reports = reports_on_rank0(s, reports_text, router.inbox());
  outcome.run = cluster_run(o, m, layout, w, router.inbox(), reports, user, ours);
  return outcome;
}

}  // namespace p2p::nccl
