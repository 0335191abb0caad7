#include "session/nccl_mpi_session.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>

#include "bench/measure/no_gpu.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_lines.hpp"
#include "common/utc_time.hpp"
#include "mpi/launch_env.hpp"
#include "mpi/session.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/run/mpi_run.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/machine_outputs.hpp"
#include "session/measurement_gate.hpp"
#include "session/nccl_outputs.hpp"
#include "topology/gate.hpp"

namespace p2p::session {

namespace {

// Rank 0 judges the gate of its own host, as a one-host run does; the verdict travels with the
// rank layout (a blocked gate refuses the run on every process). A host whose topology cannot
// be read still runs: the topology is context here, and each process checks its own GPUs.
TopologyAndGate rank0_gate(const NcclRequest& o, std::string& refusal, bool& bad_input,
                           accept::AcceptancePolicy& acceptance) {
  TopologyAndGate tg;
  try {
    bench::require_usable_gpus();
  } catch (const NoGpuError& e) {
    // Said once, by every process's own device check, as the reason the run cannot start.
    tg.gate.detail = std::string("not judged: ") + e.what();
    return tg;
  }
  try {
    const GateFiles files = read_gate_files(o.gate);
    acceptance = files.acceptance;
    tg = load_topology_and_gate("nccl", o.gate, files);
  } catch (
      const InputError& e) {  // a bad --expect or --policy file: refused everywhere, exit 2 here
    refusal = std::string("p2pcheck: error: ") + e.what() + "\n";
    bad_input = true;
    return tg;
  } catch (const std::exception& e) {
    tg = TopologyAndGate{};
    tg.gate.detail = std::string("not judged: ") + e.what();
    return tg;
  }
  if (tg.blocked) refusal = blocked_message("nccl", tg);
  return tg;
}

// --jsonl under MPI: this process's own file, every line of its sweep in the p2pcheck.jsonl
// envelope, as "nccl_<kind>" (nccl_ready, nccl_progress, nccl_case, nccl_end).
class ProcessLines {
 public:
  ProcessLines(const std::string& path, int process, const std::string& launch)
      : host_(nccl::host_name()) {
    if (path.empty()) return;
    lines_ = std::make_unique<JsonLines>(mpi::per_rank_path(path, process));
    lines_->write(report::run_start_line(
        "nccl", host_, utc_now_iso8601(),
        {{"mpi_rank", process}, {"launch", launch}, {"pid", static_cast<int>(::getpid())}}));
  }
  void line(const std::string& text) {
    if (!lines_) return;
    nlohmann::json record;
    try {
      record = parse_own_json(text, "a rank's line");
    } catch (const std::runtime_error&) {
      return;  // not a JSON line (a rank's plain output): nothing to record
    }
    const std::string kind = "nccl_" + record.value("kind", std::string("line"));
    lines_->write(report::jsonl_line(kind, "nccl", host_, utc_now_iso8601(), std::move(record)));
  }
  void end(int exit_code) {
    if (lines_) lines_->write(report::run_end_line("nccl", host_, utc_now_iso8601(), exit_code));
  }

 private:
  std::string host_;
  std::unique_ptr<JsonLines> lines_;
};

}  // namespace

int run_nccl_under_mpi(const NcclRequest& o, nccl::RunOptions options, mpi::Session& mpi_session,
                       const std::string& launch, const std::string& started,
                       const RunClock& clock) {
  const bool root = mpi_session.rank() == 0;
  ProcessLines lines(o.jsonl, mpi_session.rank(), launch);

  nccl::MpiOptions m;
  m.launch = launch;
  m.rank_per_gpu = o.rank_per_gpu;
  m.host_pairs = !o.no_host_pairs;
  TopologyAndGate tg;
  bool bad_input = false;
  NcclOutputs outputs = outputs_of(o);
  if (root) tg = rank0_gate(o, m.refusal, bad_input, outputs.acceptance);
  options.nccl_log_path = root ? o.nccl_log : "";

  nccl::Progress progress;
  if (root) {
    progress.out = &std::cerr;
    progress.label = "p2pcheck nccl";
    progress.terminal = ::isatty(STDERR_FILENO) == 1;
  }
  nccl::MpiOutcome outcome;
  try {
    outcome = nccl::run_nccl_mpi(
        options, mpi_session, m, [&lines](const std::string& l) { lines.line(l); }, progress);
  } catch (const nccl::RunRefused& e) {
    if (root) {
      std::cerr << m.refusal;
      if (tg.gate.reasons)
        write_junit(o.junit,
                    {report::gate_suite(*tg.gate.reasons, this_hostname(), utc_now_iso8601())});
    } else {
      std::cerr << "p2pcheck nccl: MPI rank " << mpi_session.rank()
                << ": refused by rank 0: " << e.what() << "\n";
    }
    const int code = bad_input ? kExitBadInput : kExitFailed;
    lines.end(code);
    return code;
  }
  if (!root) {
    lines.end(outcome.exit_code);
    return outcome.exit_code;
  }
  doc::NcclResultsSection report;
  report.run = std::move(*outcome.run);
  const int code = report_and_judge(outputs, options, report, tg, started, clock).exit_code;
  lines.end(code);
  return code;
}

}  // namespace p2p::session
