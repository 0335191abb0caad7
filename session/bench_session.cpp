#include "session/bench_session.hpp"

#include <iostream>
#include <memory>

#include "bench/measure/cases.hpp"
#include "bench/measure/inventory.hpp"
#include "bench/measure/no_gpu.hpp"
#include "bench/measure/run.hpp"
#include "bench/text_tables.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "common/run_resources.hpp"
#include "common/utc_time.hpp"
#include "harness/google_benchmark.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/bench_options.hpp"
#include "session/driver_preflight.hpp"
#include "session/gpu_sharing_check.hpp"
#include "session/machine_outputs.hpp"
#include "session/measurement_gate.hpp"
#include "session/run_log.hpp"
#include "session/run_verdict.hpp"

namespace p2p::session {
namespace {

std::vector<std::string> device_bus_ids() {
  std::vector<std::string> out;
  for (const auto& d : bench::discover_devices().devices) out.push_back(d.pci_bus_id);
  return out;
}

bench::BenchOptions bench_options(const BenchRequest& r) {
  const std::vector<std::string> benchmark_args = harness::checked_pass_through("bench", r.extras);
  // Google Benchmark gets the flags once, here: a bad flag exits 2 before any GPU work.
  harness::initialize_benchmark("bench", benchmark_args);
  bench::BenchOptions opts = bench_options_for(r.sweep);
  opts.benchmark_args = benchmark_args;
  return opts;
}

}  // namespace

std::vector<BenchCaseLine> bench_cases() {
  std::vector<BenchCaseLine> out;
  for (const auto& c : bench::all_cases()) out.push_back({c.name, c.what});
  return out;
}

int run_bench_session(const BenchRequest& r) {
  const RunClock clock;
  bench::BenchOptions opts = bench_options(r);
  const GateFiles gate_files = read_gate_files(r.gate);
  RunLog log(r.jsonl, "bench", this_hostname(), opts.benchmark_args);
  require_responsive_driver(
      "bench", r.init_timeout_s);  // a driver that hangs or crashes in cuInit: exit 5 / 3
  bench::require_usable_gpus();    // NoGpuError: one line, exit 3
  const TopologyAndGate tg = load_topology_and_gate("bench", r.gate, gate_files);
  log.gate(tg);
  if (tg.blocked) {
    std::cerr << blocked_message("bench", tg);
    // CI still gets its test report: the gate's reasons, the blocking ones failed.
    if (tg.gate.reasons)
      write_junit(r.junit,
                  {report::gate_suite(*tg.gate.reasons, this_hostname(), utc_now_iso8601())});
    return log.end(kExitFailed, {{"gate", "block"}});
  }
  bench::BenchInputs inputs{tg.snapshot, tg.gate, r.gate.skip_gate};
  if (log.active()) {
    opts.on_figure = [&log](const nlohmann::json& figure) {
      log.write(report::figure_line(figure, log.host(), utc_now_iso8601()));
    };
  }
  SharingCheck sharing(measured_bus_ids(device_bus_ids(), opts.gpus),
                       r.exclusive);    // --exclusive: BusyError, exit 6
  const InterruptGuard stop_on_signal;  // SIGINT/SIGTERM: finish the figure, keep what was measured
  bench::BenchOutcome outcome = bench::run_bench(opts, inputs, std::cerr);
  outcome.document.gpu_sharing = sharing.finish();
  const RunResources used = clock.now();
  outcome.document.wall_s = used.wall_s;
  outcome.document.peak_rss_bytes = used.peak_rss_bytes;
  const doc::RunVerdict& verdict =
      judge_measured(outcome.document, gate_files.acceptance,
                     r.gate.expect_gpus > 0 ? std::optional<int>(r.gate.expect_gpus) : std::nullopt,
                     interrupt_signal(), "bench");

  std::ostream& tables = outcome.benchmark_owns_stdout || log.to_stdout() ? std::cerr : std::cout;
  tables << bench::render_text_tables(outcome.document) << doc::format_verdict(verdict, "bench")
         << std::flush;
  if (!r.json_path.empty()) {
    const nlohmann::json j = outcome.document;
    write_text_file_atomically(r.json_path, json_text(j) + "\n");
  }
  write_junit(r.junit, report::document_suites(outcome.document,
                                               r.json_path.empty() ? "bench" : r.json_path));
  const RunEnd end = run_end(outcome.document);
  return log.end(end.exit_code, end.summary);
}

}  // namespace p2p::session
