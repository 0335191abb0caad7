#include "cli/nccl_command.hpp"

#include <cmath>
#include <iostream>

#include "cli/driver_preflight.hpp"
#include "cli/gpu_sharing_check.hpp"
#include "cli/nccl_transports_command.hpp"
#include "cli/nccl_outputs.hpp"
#include "common/byte_size.hpp"
#include "common/exit_codes.hpp"
#include "cli/machine_outputs.hpp"
#include "common/json_text.hpp"
#include "harness/google_benchmark.hpp"
#include "mpi/launch_env.hpp"

#if P2P_HAVE_NCCL
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <memory>
#include <optional>
#include <sstream>

#include "bench/inventory.hpp"
#include "bench/no_gpu.hpp"
#include "bench/run.hpp"
#include "cli/measurement_gate.hpp"
#include "common/error.hpp"
#include "common/utc_time.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_lines.hpp"
#include "common/run_resources.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/p2p_off.hpp"
#include "nccl/rank_process.hpp"
#include "nccl/run_options_json.hpp"
#include "nccl/report.hpp"
#include "nccl/runner.hpp"
#include "nccl/table.hpp"
#include "nccl/topology_view.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "topology/gate.hpp"
#include "cli/live_topology.hpp"
#include "topology/discovery/discovery.hpp"
#include "nccl/cluster_table.hpp"
#include "report/run_lines.hpp"
#if P2P_HAVE_MPI
#include "nccl/mpi_run.hpp"
#endif
#endif

namespace p2p::cli {

CLI::App* add_nccl_command(CLI::App& root, NcclCommandOptions& o) {
  CLI::App* app = root.add_subcommand(
      "nccl", "NCCL collectives (all_reduce, all_gather, reduce_scatter, broadcast, alltoall, send/recv ring and "
              "per pair): verified, timed as nccl-tests does, with the transport NCCL used per pair");
  app->add_option("--devices,--gpus", o.devices, "CUDA devices in rank order (default: all)")->delimiter(',');
  app->add_option("--ranks", o.ranks,
                  "number of ranks, placed round-robin on the devices: rank r on device r % D (default: one per "
                  "device); more ranks than devices runs them as processes")
      ->check(CLI::Range(1, 4096));
  app->add_flag("--rank-processes", o.rank_processes,
                "one process per rank (as with MPI) instead of one process driving every GPU; ranks that share a GPU "
                "get their own NCCL_HOSTID, so NCCL connects them over its network transport");
  app->add_flag("--mpi", o.mpi,
                "one communicator across the processes of an MPI job (mpirun, srun --mpi=pmix), one host or many; "
                "implied when a launcher started this process (OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_SIZE is set)");
  app->add_flag("--rank-per-gpu", o.rank_per_gpu,
                "MPI: every process drives one GPU, the one of its local rank (OMPI_COMM_WORLD_LOCAL_RANK, "
                "SLURM_LOCALID), or the local rank's entry of --gpus; default: every process drives every visible GPU");
  app->add_flag("--no-host-pairs", o.no_host_pairs,
                "MPI: skip the host-pair rounds (send/recv between every two hosts at --max-bytes)");
  app->add_option("--collectives", o.collectives,
                  "all_reduce,all_gather,reduce_scatter,broadcast,alltoall,sendrecv,sendrecv_pairs (default: all)")
      ->delimiter(',');
  app->add_option("--dtypes", o.dtypes, "float32,bfloat16,float16")->capture_default_str()->delimiter(',');
  app->add_option("--min-bytes,-b", o.min_bytes, "smallest message (8, 1K, 1M, 1G)")->capture_default_str();
  app->add_option("--max-bytes,-e", o.max_bytes, "largest message")->capture_default_str();
  app->add_option("--step-factor,-f", o.step_factor, "size multiplier between steps (2 or 4)")->capture_default_str()
      ->check(CLI::Range(2u, 1024u));
  app->add_option("--iters,-n", o.iters, "timed iterations per size (median reported)")->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app->add_option("--warmup,-w", o.warmup, "untimed iterations per size")->capture_default_str()->check(CLI::Range(0, 100000));
  app->add_option("--samples", o.samples,
                  "timed groups of back-to-back operations per size; the median group is reported (--samples "
                  "equal to --iters: median of single operations)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app->add_flag("--full", o.full, "the send/recv pair matrix at every size (default: at the largest only)");
  app->add_flag("--graph", o.graph, "time CUDA graphs of --iters operations, launched --samples times (median)");
  app->add_option("--timeout", o.timeout_s, "seconds before a collective counts as HANG and is aborted")->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
  app->add_option("--min-busbw", o.min_busbw_gbps,
                  "GB/s every series must reach (median over sizes at or above its saturation size); exit 1 if not")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--saturation-bytes", o.saturation_bytes, "judge --min-busbw from this size on (default: found)");
  app->add_option("--buffers", o.buffers,
                  "where the rank buffers come from: auto (ncclMemAlloc where NCCL has it, as nccl-tests; else "
                  "cudaMalloc), ncclMemAlloc or cudaMalloc")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "ncclMemAlloc", "cudaMalloc"}));
  app->add_flag("--compare-p2p-off", o.compare_p2p_off, "also run the sweep with NCCL_P2P_DISABLE=1, side by side");
  app->add_option("--json", o.json, "write the results to FILE (atomically)");
  add_junit_option(app, o.junit);
  add_jsonl_option(app, o.jsonl);
  app->add_option("--nccl-log", o.nccl_log, "keep NCCL's INFO log in FILE (default: a temporary file)");
  app->add_flag("--p2p-off-child", o.p2p_off_child)->group("");  // internal, hidden from --help
  app->add_option("--options", o.options_file)->group("");        // internal: the P2P-off child's sweep
  add_gate_options(app, o.gate);
  add_init_timeout_option(app, o.init_timeout_s);
  add_exclusive_option(app, o.exclusive);
  // --benchmark_* flags go to Google Benchmark unchanged (checked before anything runs).
  app->allow_extras();
  app->footer(harness::kPassThroughHelp);
  return app;
}

namespace {

// What makes this an MPI run: "--mpi", the launcher variable that says one started this
// process (mpi/launch_env.hpp), or "" for a run on this host alone.
std::string mpi_launch(const NcclCommandOptions& o) {
  if (o.mpi) return "--mpi";
  return mpi::launch_evidence(mpi::process_environment());
}

// A build without MPI cannot join a job: one line saying how to get it (exit 2), rather than
// N copies of a one-host run that each believe they are alone.
int refuse_without_mpi(const std::string& launch) {
  if (launch.empty() || P2P_HAVE_MPI) return 0;
  std::cerr << (launch == "--mpi" ? "p2pcheck nccl --mpi: this p2pcheck"
                                  : "p2pcheck nccl: started by an MPI launcher (" + launch + "), but this p2pcheck")
            << " was built without MPI; " << mpi::kHowToGetMpi << "\n";
  return kExitBadInput;
}

// Options that mean nothing, or something else, on the other side of the MPI line.
void check_mpi_options(const NcclCommandOptions& o, const std::string& launch) {
  if (launch.empty()) {
    if (o.rank_per_gpu) throw InputError("--rank-per-gpu: only with --mpi (one GPU per MPI process)");
    if (o.no_host_pairs) throw InputError("--no-host-pairs: only with --mpi (host pairs are across MPI hosts)");
    return;
  }
  const std::string why = " with MPI (" + launch + "): ranks are the job's processes and their GPUs";
  if (o.ranks != 0) throw InputError("--ranks cannot be used" + why);
  if (o.rank_processes) throw InputError("--rank-processes cannot be used" + why);
  if (o.compare_p2p_off) throw InputError("--compare-p2p-off cannot be used" + why + " (run the job twice)");
  if (o.jsonl == "-") throw InputError("--jsonl: with MPI every process writes its own file; give a path, not -");
}

}  // namespace

#if !P2P_HAVE_NCCL

int run_nccl_command(const NcclCommandOptions& o) {
  const std::string launch = mpi_launch(o);
  if (const int refused = refuse_without_mpi(launch)) return refused;
  check_mpi_options(o, launch);  // bad options are bad in every build
  std::cerr << "p2pcheck nccl: this p2pcheck was built without NCCL (no CUDA compiler or nccl.h at build time)\n";
  return kExitNoGpu;
}

namespace {
int run_nccl_rank_command(const NcclRankOptions&) { return run_nccl_command(NcclCommandOptions{}); }
}  // namespace

#else

namespace {

nccl::RunOptions run_options(const NcclCommandOptions& o) {
  nccl::RunOptions r;
  if (!o.options_file.empty()) {  // the P2P-off child: exactly the parent's sweep
    r = read_json_file(o.options_file).get<nccl::RunOptions>();
    r.p2p_disabled = true;
    return r;
  }
  r.devices = o.devices;
  r.nranks = o.ranks;
  r.rank_processes = o.rank_processes;
  if (!o.collectives.empty()) {
    r.collectives.clear();
    for (const auto& c : o.collectives) r.collectives.push_back(nccl::parse_collective(c));
  }
  r.dtypes.clear();
  for (const auto& t : o.dtypes) r.dtypes.push_back(nccl::parse_data_type(t));
  r.sweep.min_bytes = parse_bytes(o.min_bytes, "--min-bytes");
  r.sweep.max_bytes = parse_bytes(o.max_bytes, "--max-bytes");
  r.sweep.step_factor = o.step_factor;
  r.sweep.pairs_every_size = o.full;
  nccl::sweep_sizes(r.sweep);  // reject a bad range before anything starts
  r.measure.iterations = o.iters;
  r.measure.warmup_iterations = o.warmup;
  r.measure.samples = o.samples;
  r.sweep_from_defaults = o.sweep_from_defaults;
  r.measure.cuda_graph = o.graph;
  r.measure.timeout = std::chrono::duration<double>(o.timeout_s);
  r.p2p_disabled = o.p2p_off_child;
  r.benchmark_args = harness::checked_pass_through("nccl", o.benchmark_args);
  r.buffers = nccl::parse_buffer_allocator(o.buffers);
  return r;
}

// The live topology is context, not a precondition: a host hwloc cannot read still gets its
// NCCL figures, with a note in place of the side-by-side view.
std::string transport_beside_topology(const nccl::NcclRun& run, const topo::TopologySnapshot& topology) {
  if (run.transport.nranks < 2) return "";
  try {
    return nccl::format_transport_vs_topology(run, topology);
  } catch (const std::exception& e) {
    return std::string("#   (no topology beside the transport matrix: ") + e.what() + ")\n";
  }
}

// The results document bench writes, with the sweep in its `nccl` section: same host,
// versions, topology, gate and GPUs, so one reader serves both.
bench::BenchDocument nccl_document(const nccl::NcclReport& report, const TopologyAndGate& tg, bool skip_gate,
                                   const std::string& started_utc) {
  bench::BenchDocument doc;
  doc.written_by = "nccl";
  doc.started_utc = started_utc;
  bench::BenchContext ctx;
  ctx.topology = tg.snapshot;
  ctx.inventory = bench::discover_devices();
  const nccl::NcclEnvironment& env = report.run.environment;
  for (const auto& d : env.devices) {
    if (d.hostname.empty() || d.hostname == env.hostname) ctx.gpus.push_back(d.cuda_device);  // this host's only
  }
  std::sort(ctx.gpus.begin(), ctx.gpus.end());
  ctx.gpus.erase(std::unique(ctx.gpus.begin(), ctx.gpus.end()), ctx.gpus.end());  // ranks may share a GPU
  bench::describe_run_host(doc, ctx, bench::BenchInputs{tg.snapshot, tg.gate, skip_gate});
  doc.nccl = report;
  return doc;
}

// The P2P-off half of --compare-p2p-off, in a fresh process (NCCL reads NCCL_P2P_DISABLE once
// per process), running the same sweep: handed over as the serialised run options.
nccl::NcclRun run_p2p_off(const nccl::RunOptions& options, const NcclCommandOptions& o) {
  nccl::RunOptions off = options;
  off.p2p_disabled = true;
  off.nccl_log_path = o.nccl_log.empty() ? "" : o.nccl_log + ".p2p-off";
  off.benchmark_args.clear();
  for (const auto& b : options.benchmark_args) {
    if (b.rfind("--benchmark_format=", 0) != 0) off.benchmark_args.push_back(b);  // the child's stdout is discarded
  }
  nccl::TempPath file("p2pcheck-nccl-p2p-off", ".options.json");
  write_text_file_atomically(file.path(), json_text(nlohmann::json(off)) + "\n");
  return nccl::run_in_child_process({"nccl", "--p2p-off-child", "--options", file.path()});
}

bool any_status(const nccl::NcclRun& run, const std::string& status) {
  for (const auto& r : run.results) {
    if (r.status == status) return true;
  }
  if (run.cluster) {
    for (const auto& p : run.cluster->host_pairs) {
      if (p.status == status) return true;
    }
  }
  return false;
}

}  // namespace

namespace {
int run_nccl_rank_command(const NcclRankOptions& o) { return nccl::run_rank_process(o.options, o.rank); }
}  // namespace

int run_nccl_command(const NcclCommandOptions& o) {
  const std::string started = utc_now_iso8601();
  const RunClock clock;
  const std::string launch = o.p2p_off_child ? "" : mpi_launch(o);
  if (const int refused = refuse_without_mpi(launch)) return refused;
  check_mpi_options(o, launch);
  nccl::RunOptions options = run_options(o);
  harness::initialize_benchmark("nccl", options.benchmark_args);  // a bad flag exits 2 before any GPU work
  if (!o.saturation_bytes.empty()) parse_bytes(o.saturation_bytes, "--saturation-bytes");  // checked now

#if P2P_HAVE_MPI
  // Under MPI from here on: the session lives until the results are written.
  std::unique_ptr<mpi::Session> session;
  if (!launch.empty()) session = std::make_unique<mpi::Session>();
  if (session) return run_nccl_under_mpi(o, options, *session, launch, started, clock);
#endif

  const std::unique_ptr<JsonLines> lines = o.p2p_off_child ? nullptr : open_jsonl(o.jsonl);
  if (lines && lines->to_stdout() && harness::benchmark_owns_stdout(options.benchmark_args))
    throw InputError("--jsonl - and --benchmark_format both write to standard output: give --jsonl a file");
  // The first line names the host before anything can hang or fail.
  const std::string host = this_hostname();
  if (lines) lines->write(report::jsonl_line("run_start", "nccl", host, utc_now_iso8601(), {{"tool_version", P2P_VERSION}}));
  const auto end_line = [&](int code, const nlohmann::json& extra) {
    if (!lines) return code;
    nlohmann::json r = extra;
    r["exit_code"] = code;
    lines->write(report::jsonl_line("run_end", "nccl", host, utc_now_iso8601(), r));
    return code;
  };

  // The gate, as in front of bench. The P2P-off child measures what its parent's gate let through.
  TopologyAndGate tg;
  if (o.p2p_off_child) {
    // In a process group of its own (p2p_off.cpp): if the parent ends at once (a second signal),
    // nothing else would stop this half.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    tg.snapshot = bench::snapshot_from_cuda(bench::discover_devices());
    tg.gate.detail = "judged by the parent run";
  } else {
    const GateFiles gate_files = read_gate_files(o.gate);
    require_responsive_driver("nccl", o.init_timeout_s);  // a driver that hangs or crashes in cuInit: exit 5 / 3
    bench::require_usable_gpus();  // NoGpuError: one line, exit 3
    tg = load_topology_and_gate("nccl", o.gate, gate_files);
    if (tg.blocked) {
      std::cerr << blocked_message("nccl", tg);
      // CI still gets its test report: the gate's reasons, the blocking ones failed.
      if (tg.gate.reasons.is_object())
        write_junit(o.junit, {report::gate_suite(tg.gate.reasons.get<topo::GateDecision>(), this_hostname(), utc_now_iso8601())});
      return end_line(kExitFailed, {{"gate", "block"}});
    }
    if (lines && tg.gate.reasons.is_object()) {
      for (const auto& l : report::gate_lines(tg.gate.reasons.get<topo::GateDecision>(), "nccl", host, utc_now_iso8601()))
        lines->write(l);
    }
  }

  // The P2P-off child runs inside its parent's check.
  std::unique_ptr<SharingCheck> sharing;
  if (!o.p2p_off_child) {
    std::vector<std::string> all_bus_ids;
    for (const auto& d : bench::discover_devices().devices) all_bus_ids.push_back(d.pci_bus_id);
    sharing = std::make_unique<SharingCheck>(measured_bus_ids(all_bus_ids, options.devices), o.exclusive);
  }

  // SIGINT/SIGTERM: finish the case in progress, keep what was measured (the P2P-off child is
  // stopped with its parent: same process group, or the signal the parent forwards).
  const InterruptGuard stop_on_signal;
  if (lines) {
    options.on_result = [&lines, &host](const nccl::CollectiveResult& r) {
      lines->write(report::jsonl_line("nccl_result", "nccl", host, utc_now_iso8601(), nlohmann::json(r)));
    };
  }
  nccl::NcclReport report;
  // Before this process loads NCCL: the child must be the first NCCL user of its own process.
  if (o.compare_p2p_off && !o.p2p_off_child) report.p2p_off = run_p2p_off(options, o);

  std::unique_ptr<nccl::TempPath> temp_log;
  if (o.options_file.empty()) options.nccl_log_path = o.nccl_log;
  if (options.nccl_log_path.empty()) {
    temp_log = std::make_unique<nccl::TempPath>("p2pcheck-nccl", ".log");
    options.nccl_log_path = temp_log->path();
  }
  nccl::Progress progress;
  progress.out = &std::cerr;
  progress.label = std::string("p2pcheck nccl") + (o.p2p_off_child ? " (P2P off)" : "");
  progress.terminal = ::isatty(STDERR_FILENO) == 1;
  if (interrupt_signal() == 0) report.run = nccl::run_nccl_sweep(options, progress);
  const NcclVerdict verdict = report_and_judge(o, options, report, tg, started, clock, sharing.get());
  return end_line(verdict.exit_code, verdict.summary);
}

NcclVerdict report_and_judge(const NcclCommandOptions& o, const nccl::RunOptions& options, nccl::NcclReport& report,
                             const TopologyAndGate& tg, const std::string& started, const RunClock& clock,
                             SharingCheck* sharing) {
  std::optional<std::uint64_t> saturation;
  if (!o.saturation_bytes.empty()) saturation = parse_bytes(o.saturation_bytes, "--saturation-bytes");
  if (!std::isnan(o.min_busbw_gbps) && !o.p2p_off_child) {
    report.min_busbw_gbps = o.min_busbw_gbps;
    report.verdicts = nccl::judge_min_busbw(report.run.results, o.min_busbw_gbps, saturation);
  }

  // With --benchmark_format, Google Benchmark's report owns stdout and the tables go to stderr.
  std::ostream& tables = harness::benchmark_owns_stdout(options.benchmark_args) ? std::cerr : std::cout;
  tables << nccl::format_environment(report.run.environment) << nccl::format_run_warnings(report.run)
         << nccl::format_results_table(report.run)
         << nccl::format_transport_matrix(report.run)
         // Across hosts this host's topology describes only some of the ranks.
         << (report.run.cluster ? nccl::format_cluster(report.run) : transport_beside_topology(report.run, tg.snapshot))
         << nccl::format_pair_matrix(report.run);
  if (report.p2p_off) {
    tables << nccl::format_transport_matrix(*report.p2p_off) << nccl::format_pair_matrix(*report.p2p_off)
           << nccl::format_p2p_comparison(report.run, *report.p2p_off);
  }
  tables << nccl::format_verdicts(report.verdicts) << std::flush;
  bench::BenchDocument doc = nccl_document(report, tg, o.gate.skip_gate, started);
  if (const int sig = interrupt_signal()) {
    doc.interrupted = interrupt_name(sig) + " after " + std::to_string(report.run.results.size()) +
                      " results; the rest were not measured";
    tables << "#   INTERRUPTED: " << doc.interrupted << "\n";
  }
  if (sharing) {
    doc.gpu_sharing = sharing->finish();
    tables << bench::sharing_warning(*doc.gpu_sharing);
  }
  const RunResources used = clock.now();
  doc.wall_s = used.wall_s;
  doc.peak_rss_bytes = used.peak_rss_bytes;
  tables << bench::describe_resources(doc) << std::flush;
  if (!o.json.empty()) write_text_file_atomically(o.json, json_text(nlohmann::json(doc)) + "\n");
  if (!o.junit.empty()) write_junit(o.junit, report::document_suites(doc, o.json.empty() ? "nccl" : o.json));

  // Ranks as processes: a rank that hung (or was killed for silence) is a hang; one that died
  // while the others did not hang is a failure of the run itself (kExitRuntime), not a verdict.
  const bool hang = any_status(report.run, "hang") || nccl::any_rank_hung(report.run) ||
                    (report.p2p_off && (any_status(*report.p2p_off, "hang") || nccl::any_rank_hung(*report.p2p_off)));
  const bool died = nccl::any_rank_died(report.run) || (report.p2p_off && nccl::any_rank_died(*report.p2p_off));
  const bool failed = any_status(report.run, "wrong") || any_status(report.run, "error") ||
                      (report.p2p_off && (any_status(*report.p2p_off, "wrong") || any_status(*report.p2p_off, "error"))) ||
                      nccl::any_failed(report.verdicts);
  const nlohmann::json summary = {{"results", report.run.results.size()},
                                  {"interrupted", doc.interrupted},
                                  {"gpu_shared", doc.gpu_sharing ? nlohmann::json(doc.gpu_sharing->shared) : nullptr}};
  if (const int sig = interrupt_signal()) return {interrupted_exit_code(sig), summary};
  if (hang) return {kExitHang, summary};
  if (died) return {kExitRuntime, summary};
  return {failed ? kExitFailed : kExitOk, summary};
}

#endif

Command add_nccl_command(CLI::App& root) {
  auto o = std::make_shared<NcclCommandOptions>();
  CLI::App* app = add_nccl_command(root, *o);
  // `nccl transports` reads logs only: it runs in every build, with or without NCCL.
  const Command transports = add_nccl_transports_command(*app);
  return Command{app, [o, app, transports] {
                   if (transports.app->parsed()) return transports.run();
                   o->benchmark_args = app->remaining();
                   o->sweep_from_defaults = true;
                   for (const char* name : {"--min-bytes", "--max-bytes", "--step-factor", "--iters", "--warmup", "--samples"}) {
                     if (app->count(name) > 0) o->sweep_from_defaults = false;
                   }
                   return run_nccl_command(*o);
                 }};
}

Command add_nccl_rank_command(CLI::App& root) {
  auto o = std::make_shared<NcclRankOptions>();
  CLI::App* app = root.add_subcommand("nccl-rank", "one rank process of `p2pcheck nccl --rank-processes`");
  app->group("");  // internal: started by `p2pcheck nccl`, hidden from --help
  app->add_option("--options", o->options, "the run's options (JSON)")->required();
  app->add_option("--rank", o->rank, "this process's rank")->required();
  return Command{app, [o] { return run_nccl_rank_command(*o); }};
}

}  // namespace p2p::cli
