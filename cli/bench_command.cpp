#include "cli/bench_command.hpp"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/driver_preflight.hpp"
#include "cli/gate_options.hpp"
#include "cli/gpu_sharing_check.hpp"
#include "cli/machine_outputs.hpp"
#include "common/error.hpp"
#include "common/json_text.hpp"
#include "harness/google_benchmark.hpp"

#if P2P_WITH_BENCH
#include "bench/cases.hpp"
#include "bench/host_memory.hpp"
#include "bench/inventory.hpp"
#include "bench/no_gpu.hpp"
#include "bench/run.hpp"
#include "bench/selection.hpp"
#include "bench/sizes.hpp"
#include "bench/peer_access_check.hpp"
#include "cli/measurement_gate.hpp"
#include "common/exit_codes.hpp"
#include "common/interrupt.hpp"
#include "common/run_resources.hpp"
#include "common/file_io.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/policy.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "common/utc_time.hpp"
#endif

namespace p2p::cli {
namespace {

struct BenchCommandOptions {
  bool list = false;
  std::string gpus;
  std::string sizes;
  int samples = 5;
  int warmup_samples = 1;
  int copies = 0;
  std::string json_path;
  std::string junit;
  std::string jsonl;
  MeasurementGateOptions gate;
  bool no_affinity = false;
  std::string host_memory = "pinned";
  int logical_gpus = 0;
  bool full = false;
  double init_timeout_s = kDefaultInitTimeoutS;
  bool exclusive = false;
};

#if P2P_WITH_BENCH

int print_case_list() {
  std::size_t width = 0;
  for (const auto& c : bench::all_cases()) width = std::max(width, c.name.size());
  for (const auto& c : bench::all_cases()) {
    std::cout << std::left << std::setw(static_cast<int>(width) + 2) << c.name << c.what << "\n";
  }
  return 0;
}

std::vector<std::string> device_bus_ids() {
  std::vector<std::string> out;
  for (const auto& d : bench::discover_devices().devices) out.push_back(d.pci_bus_id);
  return out;
}

int run_bench_command(const BenchCommandOptions& o, const std::vector<std::string>& extras) {
  if (o.list) return print_case_list();
  const RunClock clock;
  bench::BenchOptions opts;
  opts.benchmark_args = harness::checked_pass_through("bench", extras);
  harness::initialize_benchmark("bench", opts.benchmark_args);  // a bad flag exits 2 before any GPU work
  if (!o.gpus.empty()) opts.gpus = bench::parse_gpu_list(o.gpus);
  if (!o.sizes.empty()) opts.sizes_bytes = bench::parse_size_list(o.sizes);
  opts.full_sweep = o.full || !o.sizes.empty();  // sizes asked for by name are measured everywhere
  opts.measure.samples = o.samples;
  opts.measure.warmup_samples = o.warmup_samples;
  opts.measure.copies_per_batch = o.copies;
  opts.cpu_affinity = !o.no_affinity;
  opts.logical_gpus = o.logical_gpus;
  opts.measure.host_memory = *bench::host_memory_from_string(o.host_memory);  // checked by CLI11

  const GateFiles gate_files = read_gate_files(o.gate);
  const std::unique_ptr<JsonLines> lines = open_jsonl(o.jsonl);
  if (lines && lines->to_stdout() && harness::benchmark_owns_stdout(opts.benchmark_args))
    throw InputError("--jsonl - and --benchmark_format both write to standard output: give --jsonl a file");
  // The first line names the host before anything can hang or fail.
  const std::string host = this_hostname();
  if (lines) lines->write(report::jsonl_line("run_start", "bench", host, utc_now_iso8601(), {{"tool_version", P2P_VERSION}}));
  require_responsive_driver("bench", o.init_timeout_s);  // a driver that hangs or crashes in cuInit: exit 5 / 3
  bench::require_usable_gpus();  // NoGpuError: one line, exit 3
  const TopologyAndGate tg = load_topology_and_gate("bench", o.gate, gate_files);
  if (lines) {
    if (tg.gate.reasons.is_object()) {
      for (const auto& l : report::gate_lines(tg.gate.reasons.get<topo::GateDecision>(), "bench", host, utc_now_iso8601()))
        lines->write(l);
    }
  }
  const auto end_line = [&](int code, const nlohmann::json& extra) {
    if (!lines) return code;
    nlohmann::json r = extra;
    r["exit_code"] = code;
    lines->write(report::jsonl_line("run_end", "bench", host, utc_now_iso8601(), r));
    return code;
  };
  if (tg.blocked) {
    std::cerr << blocked_message("bench", tg);
    // CI still gets its test report: the gate's reasons, the blocking ones failed.
    if (tg.gate.reasons.is_object())
      write_junit(o.junit, {report::gate_suite(tg.gate.reasons.get<topo::GateDecision>(), this_hostname(), utc_now_iso8601())});
    return end_line(kExitFailed, {{"gate", "block"}});
  }
  bench::BenchInputs inputs{tg.snapshot, tg.gate, o.gate.skip_gate};
  if (lines) {
    opts.on_figure = [&lines, &host](const nlohmann::json& figure) {
      lines->write(report::figure_line(figure, host, utc_now_iso8601()));
    };
  }
  SharingCheck sharing(measured_bus_ids(device_bus_ids(), opts.gpus), o.exclusive);  // --exclusive: BusyError, exit 6
  const InterruptGuard stop_on_signal;  // SIGINT/SIGTERM: finish the figure, keep what was measured
  bench::BenchOutcome outcome = bench::run_bench(opts, inputs, std::cerr);
  outcome.document.gpu_sharing = sharing.finish();
  const RunResources used = clock.now();
  outcome.document.wall_s = used.wall_s;
  outcome.document.peak_rss_bytes = used.peak_rss_bytes;

  std::ostream& tables = outcome.benchmark_owns_stdout || (lines && lines->to_stdout()) ? std::cerr : std::cout;
  tables << bench::render_text_report(outcome.document) << bench::sharing_warning(*outcome.document.gpu_sharing)
         << std::flush;
  if (!o.json_path.empty()) {
    const nlohmann::json j = outcome.document;
    write_text_file_atomically(o.json_path, json_text(j) + "\n");
  }
  write_junit(o.junit, report::document_suites(outcome.document, o.json_path.empty() ? "bench" : o.json_path));
  const bench::FigureCounts counts = bench::count_figures(outcome.document);
  const nlohmann::json summary = {{"ok", counts.ok}, {"failed", counts.failed}, {"waived", counts.waived},
                                  {"errors", counts.errors}, {"interrupted", outcome.document.interrupted},
                                  {"gpu_shared", outcome.document.gpu_sharing->shared}};
  if (const int sig = interrupt_signal()) return end_line(interrupted_exit_code(sig), summary);
  return end_line(bench::exit_code_for(outcome.document), summary);
}

#else

int run_bench_command(const BenchCommandOptions&, const std::vector<std::string>&) {
  throw NoGpuError("this p2pcheck was built without CUDA: bench is not available");
}

#endif

}  // namespace

Command add_bench_command(CLI::App& root) {
  auto o = std::make_shared<BenchCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "bench", "Measure bandwidth and latency of every GPU pair and host link, verifying every transfer");
  app->add_flag("--list", o->list, "List the benchmark cases, one line each, and exit");
  app->add_option("--gpus", o->gpus, "CUDA ordinals to measure, e.g. 0,1 (default: all)");
  app->add_option("--logical-gpus", o->logical_gpus,
                  "Place N logical GPUs round-robin on the selected devices and measure every pair of them: "
                  "the per-pair paths of an N-GPU host run here, but the figures measure the tool, not the links")
      ->check(CLI::Range(1, 64));
  app->add_option("--sizes", o->sizes,
                  "Copy sizes, e.g. 64M,1G, measured for every route (default: 4K, 16K, ... 256M and 512M, swept "
                  "for one route per kind of path; every other route at 512M)");
  app->add_flag("--full", o->full, "Sweep every size for every route (thousands of figures on 8 GPUs)");
  app->add_option("--samples", o->samples, "Timed samples per figure; the median is reported")
      ->check(CLI::Range(1, 1000));
  app->add_option("--warmup", o->warmup_samples, "Untimed (but verified) samples before timing")
      ->check(CLI::Range(0, 100));
  app->add_option("--copies", o->copies, "Copies per timed sample (default: about 2 GiB per sample, 4 to 64)")
      ->check(CLI::Range(0, 64));
  app->add_option("--json", o->json_path, "Write the results document to FILE (atomically)");
  add_junit_option(app, o->junit);
  add_jsonl_option(app, o->jsonl);
  add_gate_options(app, o->gate);
  add_init_timeout_option(app, o->init_timeout_s);
  add_exclusive_option(app, o->exclusive);
  app->add_flag("--no-affinity", o->no_affinity, "Do not pin the host thread to the GPU's local CPUs");
  app->add_option("--host-memory", o->host_memory,
                  "Host buffers: pinned (cudaHostAlloc) or hugepages (2 MiB pages, cudaHostRegister)")
      ->check(CLI::IsMember({"pinned", "hugepages"}));
  // --benchmark_* flags go to Google Benchmark unchanged.
  app->allow_extras();
  app->footer(harness::kPassThroughHelp);
  return Command{app, [o, app] { return run_bench_command(*o, app->remaining()); }};
}

}  // namespace p2p::cli
