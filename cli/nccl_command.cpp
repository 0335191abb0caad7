#include "cli/nccl_command.hpp"

#include <memory>
#include <string>

#include "cli/machine_outputs.hpp"
#include "cli/measurement_options.hpp"
#include "cli/nccl_transports_command.hpp"
#include "cli/renamed_option.hpp"
#include "cli/validators.hpp"
#include "common/output_paths.hpp"
#include "harness/google_benchmark.hpp"
#include "session/nccl_session.hpp"

namespace p2p::cli {
namespace {

struct RankOptions {
  std::string options;
  int rank = -1;
};

// The sweep: message sizes, steps, iterations and samples, as nccl-tests names them.
void add_sweep_options(CLI::App* app, session::NcclRequest& o) {
  app->add_option("--min-bytes,-b", o.min_bytes, "smallest message (8, 1K, 1M, 1G)")
      ->capture_default_str()
      ->type_name("SIZE")
      ->check(byte_size_between(1, std::uint64_t{1} << 40));
  app->add_option("--max-bytes,-e", o.max_bytes, "largest message")
      ->capture_default_str()
      ->type_name("SIZE")
      ->check(byte_size_between(1, std::uint64_t{1} << 40));
  app->add_option("--step-factor,-f", o.step_factor, "size multiplier between steps (2 or 4)")
      ->capture_default_str()
      ->check(count_between(2, 1024));
  app->add_option("--iters,-n", o.iters, "timed iterations per size (median reported)")
      ->capture_default_str()
      ->check(count_between(1, 100000));
  app->add_option("--warmup,-w", o.warmup, "untimed iterations per size")
      ->capture_default_str()
      ->check(count_between(0, 100000));
  app->add_option(
         "--samples", o.samples,
         "timed groups of back-to-back operations per size; the median group is reported (--samples "
         "equal to --iters: median of single operations)")
      ->capture_default_str()
      ->check(count_between(1, 100000));
  app->add_flag("--full", o.full,
                "the send/recv pair matrix at every size (default: at the largest only)");
  app->add_flag("--graph", o.graph,
                "time CUDA graphs of --iters operations, launched --samples times (median)");
  app->add_option("--timeout", o.timeout_s,
                  "seconds before a collective counts as HANG and is aborted")
      ->capture_default_str()
      ->check(seconds_between(0.001, 86400.0));
}

// What is measured and what it is held to: collectives, types, sizes, the busbw floor, buffers.
void add_what_to_measure_options(CLI::App* app, session::NcclRequest& o) {
  app->add_option(
         "--collectives", o.collectives,
         "all_reduce,all_gather,reduce_scatter,broadcast,alltoall,sendrecv,sendrecv_pairs (default: all)")
      ->delimiter(',');
  app->add_option("--dtype", o.dtypes, "data types: float32, bfloat16 (bf16), float16 (fp16)")
      ->capture_default_str()
      ->delimiter(',');
  add_renamed_option(app, "--dtypes", "--dtype", o.dtypes)->delimiter(',');
  add_sweep_options(app, o);
  app->add_option(
         "--min-busbw", o.min_busbw_gbps,
         "GB/s every series must reach (median over sizes at or above its saturation size); exit 1 if not")
      ->check(number_between(0.0, 1e6, "GB/s"));
  app->add_option("--saturation-bytes", o.saturation_bytes,
                  "judge --min-busbw from this size on (default: found)")
      ->type_name("SIZE")
      ->check(byte_size_between(1, std::uint64_t{1} << 40));
  app->add_option(
         "--buffers", o.buffers,
         "where the rank buffers come from: auto (ncclMemAlloc where NCCL has it, as nccl-tests; else "
         "cudaMalloc), ncclMemAlloc or cudaMalloc")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "ncclMemAlloc", "cudaMalloc"}));
  app->add_flag("--compare-p2p-off", o.compare_p2p_off,
                "also run the sweep with NCCL_P2P_DISABLE=1, side by side");
}

CLI::App* declare_nccl_options(CLI::App& root, session::NcclRequest& o) {
  CLI::App* app = root.add_subcommand(
      "nccl",
      "NCCL collectives (all_reduce, all_gather, reduce_scatter, broadcast, alltoall, send/recv ring and "
      "per pair): verified, timed as nccl-tests does, with the transport NCCL used per pair");
  app->add_option("--devices,--gpus", o.devices, "CUDA devices in rank order (default: all)")
      ->delimiter(',')
      ->check(not_empty("CUDA device numbers"));
  app->add_option(
         "--ranks", o.ranks,
         "number of ranks, placed round-robin on the devices: rank r on device r % D (default: one per "
         "device); more ranks than devices runs them as processes")
      ->check(count_between(1, 4096));
  app->add_flag(
      "--rank-processes", o.rank_processes,
      "one process per rank (as with MPI) instead of one process driving every GPU; ranks that share a GPU "
      "get their own NCCL_HOSTID, so NCCL connects them over its network transport");
  add_nccl_mpi_options(app, o);
  add_what_to_measure_options(app, o);
  app->add_option("--json", o.json, "write the results to FILE (atomically)")
      ->type_name("FILE")
      ->check(file_path());
  add_junit_option(app, o.junit);
  add_jsonl_option(app, o.jsonl);
  app->add_option("--nccl-log", o.nccl_log,
                  "keep NCCL's INFO log in FILE (default: a temporary file)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_flag("--p2p-off-child", o.p2p_off_child)->group("");  // internal, hidden from --help
  app->add_option("--options", o.options_file)->group("");  // internal: the P2P-off child's sweep
  add_gate_options(app, o.gate);
  add_init_timeout_option(app, o.init_timeout_s);
  add_exclusive_option(app, o.exclusive);
  // --benchmark_* flags go to Google Benchmark unchanged (checked before anything runs).
  app->allow_extras();
  app->footer(harness::kPassThroughHelp);
  return app;
}

// The tables are stdout's: only the lines may take it (they move the tables aside).
OutputRequest nccl_output_paths(const session::NcclRequest& o) {
  OutputRequest paths;
  add_output(paths, "--json", o.json, false);
  add_output(paths, "--junit", o.junit, false);
  add_output(paths, "--jsonl", o.jsonl);
  add_output(paths, "--nccl-log", o.nccl_log, false);
  add_gate_inputs(paths, o.gate);
  add_input(paths, "--options", o.options_file);
  return paths;
}

}  // namespace

Command add_nccl_command(CLI::App& root) {
  auto o = std::make_shared<session::NcclRequest>();
  CLI::App* app = declare_nccl_options(root, *o);
  // `nccl transports` reads logs only: it runs in every build, with or without NCCL.
  const Command transports = add_nccl_transports_command(*app);
  return Command{app, [o, app, transports] {
                   if (transports.app->parsed()) return transports.run();
                   check_output_paths(nccl_output_paths(*o));
                   o->benchmark_args = app->remaining();
                   o->sweep_from_defaults = true;
                   for (const char* name : {"--min-bytes", "--max-bytes", "--step-factor",
                                            "--iters", "--warmup", "--samples"}) {
                     if (app->count(name) > 0) o->sweep_from_defaults = false;
                   }
                   return session::run_nccl_session(*o);
                 }};
}

Command add_nccl_rank_command(CLI::App& root) {
  auto o = std::make_shared<RankOptions>();
  CLI::App* app =
      root.add_subcommand("nccl-rank", "one rank process of `p2pcheck nccl --rank-processes`");
  app->group("");  // internal: started by `p2pcheck nccl`, hidden from --help
  app->add_option("--options", o->options, "the run's options (JSON)")->required();
  app->add_option("--rank", o->rank, "this process's rank")->required();
  return Command{app, [o] { return session::run_nccl_rank(o->options, o->rank); }};
}

}  // namespace p2p::cli
