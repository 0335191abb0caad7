#include "session/nccl_session.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>

#include "bench/measure/no_gpu.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "common/run_resources.hpp"
#include "common/utc_time.hpp"
#include "gpus/cuda_devices.hpp"
#include "harness/google_benchmark.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/run/p2p_off.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/run_options_json.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/driver_preflight.hpp"
#include "session/gpu_sharing_check.hpp"
#include "session/machine_outputs.hpp"
#include "session/measurement_gate.hpp"
#include "session/nccl_launch.hpp"
#include "session/nccl_outputs.hpp"
#include "session/nccl_run_options.hpp"
#include "session/run_log.hpp"
#include "topology/discovery/discovery.hpp"
#if P2P_HAVE_MPI
#include "mpi/session.hpp"
#include "session/nccl_mpi_session.hpp"
#endif

namespace p2p::session {
namespace {

// The P2P-off half of --compare-p2p-off, in a fresh process (NCCL reads NCCL_P2P_DISABLE once
// per process), running the same sweep: handed over as the serialised run options, so the
// child's command line carries only where they are.
doc::NcclRun run_p2p_off(const nccl::RunOptions& options, const std::string& nccl_log) {
  nccl::TempPath file("p2pcheck-nccl-p2p-off", ".options.json");
  write_text_file_atomically(file.path(),
                             json_text(nlohmann::json(p2p_off_options(options, nccl_log))) + "\n");
  return nccl::run_in_child_process({"nccl", "--p2p-off-child", "--options", file.path()});
}

// NCCL's log: where the run was told to keep it, else a temporary file removed with `temp`.
void choose_nccl_log(nccl::RunOptions& options, std::unique_ptr<nccl::TempPath>& temp) {
  if (!options.nccl_log_path.empty()) return;
  temp = std::make_unique<nccl::TempPath>("p2pcheck-nccl", ".log");
  options.nccl_log_path = temp->path();
}

nccl::Progress progress_line(const std::string& label) {
  nccl::Progress progress;
  progress.out = &std::cerr;
  progress.label = label;
  progress.terminal = ::isatty(STDERR_FILENO) == 1;
  return progress;
}

// The P2P-off half: everything it measures comes from the options file its parent wrote; the
// gate, the sharing check, --jsonl and --min-busbw belong to the parent run.
int run_p2p_off_half(const NcclRequest& o) {
  if (!o.p2p_off_child || o.options_file.empty())
    throw InputError(
        "--p2p-off-child and --options FILE are internal to --compare-p2p-off and come together");
  const std::string started = utc_now_iso8601();
  const RunClock clock;
  nccl::RunOptions options = read_p2p_off_options(o.options_file);
  harness::initialize_benchmark("nccl", options.benchmark_args);
  // In a process group of its own (nccl/run/p2p_off.cpp): if the parent ends at once (a second
  // signal), nothing else would stop this half.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  TopologyAndGate tg;  // the P2P-off half measures what its parent's gate let through
  tg.snapshot = gpus::snapshot_from_cuda(gpus::discover_devices());
  tg.gate.detail = "judged by the parent run";
  // SIGINT/SIGTERM (forwarded by the parent): finish the case in progress, keep what was measured.
  const InterruptGuard stop_on_signal;
  std::unique_ptr<nccl::TempPath> temp_log;
  choose_nccl_log(options, temp_log);
  doc::NcclResultsSection report;
  if (interrupt_signal() == 0)
    report.run = nccl::run_nccl_sweep(options, progress_line("p2pcheck nccl (P2P off)"));
  NcclOutputs outputs;
  outputs.json = o.json;
  return report_and_judge(outputs, options, report, tg, started, clock).exit_code;
}

}  // namespace

int run_nccl_rank(const std::string& options_path, int rank) {
  return nccl::run_rank_process(options_path, rank);
}

namespace {

// nccl's own part of the pipeline (session/measurement_pipeline.hpp) on one host: the sweep (and
// its P2P-off half, first, in a process of its own), the tables, and the document judged.
class NcclMeasurement : public Measurement {
 public:
  NcclMeasurement(const NcclRequest& o, nccl::RunOptions options, std::string started)
      : request_(o), options_(std::move(options)), started_(std::move(started)) {
    outputs_ = outputs_of(o);
  }

  std::vector<std::string> bus_ids_to_measure() override {
    std::vector<std::string> all;
    for (const auto& d : gpus::discover_devices().devices) all.push_back(d.pci_bus_id);
    return measured_bus_ids(all, options_.devices);
  }

  void measure(const TopologyAndGate& tg, RunLog& log) override {
    tg_ = tg;
    if (log.active()) {
      options_.on_result = [&log](const doc::CollectiveResult& r) {
        log.write(report::jsonl_line("nccl_result", "nccl", log.host(), utc_now_iso8601(),
                                     nlohmann::json(r)));
      };
    }
    // Before this process loads NCCL: the child must be the first NCCL user of its own process.
    if (request_.compare_p2p_off) report_.p2p_off = run_p2p_off(options_, request_.nccl_log);
    options_.nccl_log_path = request_.nccl_log;
    choose_nccl_log(options_, temp_log_);
    if (interrupt_signal() == 0)
      report_.run = nccl::run_nccl_sweep(options_, progress_line("p2pcheck nccl"));
  }

  JudgedRun judge(const AfterMeasuring& after) override {
    outputs_.acceptance = *after.acceptance;
    return judge_nccl(outputs_, options_, report_, tg_, started_, after);
  }

 private:
  const NcclRequest& request_;
  nccl::RunOptions options_;
  std::string started_;
  NcclOutputs outputs_;
  TopologyAndGate tg_;
  doc::NcclResultsSection report_;
  std::unique_ptr<nccl::TempPath> temp_log_;
};

}  // namespace

int run_nccl_session(const NcclRequest& o) {
  if (o.p2p_off_child || !o.options_file.empty()) return run_p2p_off_half(o);
  const std::string started = utc_now_iso8601();
  const RunClock clock;
  const std::string launch = mpi_launch(o, mpi::process_environment());
  if (const std::string refusal = refusal_without_mpi(launch, P2P_HAVE_MPI); !refusal.empty()) {
    std::cerr << refusal;
    return kExitBadInput;
  }
  check_mpi_options(o, launch);
  nccl::RunOptions options = run_options_from_request(o);
  // Google Benchmark gets the flags once, here: a bad flag exits 2 before any GPU work.
  harness::initialize_benchmark("nccl", options.benchmark_args);
  if (!o.saturation_bytes.empty())
    p2p::parse_bytes(o.saturation_bytes, "--saturation-bytes");  // checked now

#if P2P_HAVE_MPI
  // Under MPI from here on: the MPI session lives until the results are written.
  std::unique_ptr<mpi::Session> mpi_session;
  if (!launch.empty()) mpi_session = std::make_unique<mpi::Session>();
  if (mpi_session) return run_nccl_under_mpi(o, options, *mpi_session, launch, started, clock);
#endif

  MeasurementRequest m;
  m.command = "nccl";
  m.gate = o.gate;
  m.init_timeout_s = o.init_timeout_s;
  m.exclusive = o.exclusive;
  m.outputs = RunOutputs{o.json, o.jsonl, o.junit};
  m.benchmark_args = options.benchmark_args;
  NcclMeasurement nccl(o, options, started);
  return run_measurement(m, nccl);
}

}  // namespace p2p::session
