#include "session/measurement_pipeline.hpp"

#include <iostream>

#include "bench/measure/no_gpu.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "common/utc_time.hpp"
#include "session/driver_preflight.hpp"
#include "session/gpu_sharing_check.hpp"
#include "session/machine_outputs.hpp"
#include "session/measurement_gate.hpp"

namespace p2p::session {
namespace {

// The gate blocked: its reasons on stderr, CI's test report still written (the blocking
// reasons failed), and the run ends with the gate's verdict.
int refuse_blocked(const MeasurementRequest& r, const TopologyAndGate& tg, RunLog& log) {
  std::cerr << blocked_message(r.command, tg);
  if (tg.gate.reasons)
    write_junit(r.outputs.junit,
                {report::gate_suite(*tg.gate.reasons, this_hostname(), utc_now_iso8601())});
  return log.end(kExitFailed, {{"gate", "block"}});
}

}  // namespace

void write_judged_run(const RunOutputs& outputs, JudgedRun& run, const std::string& command,
                      bool stdout_taken) {
  (run.text_to_stderr || stdout_taken ? std::cerr : std::cout)
      << run.text << doc::format_verdict(run.verdict, command) << std::flush;
  // Replaced together: never a new document beside an old test report.
  std::vector<FileToWrite> files;
  if (!outputs.json.empty()) files.push_back({outputs.json, json_text(run.document) + "\n"});
  for (const auto& [path, text] : run.extra_files) files.push_back({path, text});
  files.push_back(junit_file(outputs.junit, std::move(run.junit)));
  write_text_files_atomically(files);
}

int run_measurement(const MeasurementRequest& r, Measurement& m) {
  const RunClock clock;
  RunLog log(r.outputs.jsonl, r.command, this_hostname(), r.benchmark_args);
  const GateFiles files = read_gate_files(r.gate);         // a bad file exits 2 whatever the host
  require_responsive_driver(r.command, r.init_timeout_s);  // a hung cuInit: 5; a crash: 3
  bench::require_usable_gpus();                            // NoGpuError: one line, exit 3
  const TopologyAndGate tg = load_topology_and_gate(r.command, r.gate, files);
  log.gate(tg);
  if (tg.blocked) return refuse_blocked(r, tg, log);

  SharingCheck sharing(m.bus_ids_to_measure(), r.exclusive);  // --exclusive: BusyError, exit 6
  const InterruptGuard stop_on_signal;  // SIGINT/SIGTERM: finish the figure, keep what was measured
  m.measure(tg, log);

  AfterMeasuring after;
  after.sharing = sharing.finish();
  after.used = clock.now();
  after.acceptance = &files.acceptance;
  if (r.gate.expect_gpus > 0) after.expect_gpus = r.gate.expect_gpus;
  after.interrupt_signal = interrupt_signal();
  JudgedRun run = m.judge(after);
  write_judged_run(r.outputs, run, r.command, log.to_stdout());
  return log.end(doc::exit_code(run.verdict), run.summary);
}

}  // namespace p2p::session
