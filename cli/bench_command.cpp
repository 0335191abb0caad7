#include "cli/bench_command.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli/machine_outputs.hpp"
#include "cli/measurement_options.hpp"
#include "cli/validators.hpp"
#include "common/error.hpp"
#include "common/output_paths.hpp"
#include "harness/google_benchmark.hpp"
#include "session/bench_request.hpp"
#include "session/bench_session.hpp"

namespace p2p::cli {
namespace {

// --list prints the cases and measures nothing: an output asked for beside it cannot be made.
int print_case_list(const session::BenchRequest& r) {
  const std::pair<const char*, std::string> outputs[] = {
      {"--json", r.json_path}, {"--junit", r.junit}, {"--jsonl", r.jsonl}};
  for (const auto& [option, path] : outputs) {
    if (!path.empty())
      throw InputError(std::string(option) +
                       ": bench --list measures nothing, so there is nothing to write; drop one");
  }
  const std::vector<session::BenchCaseLine> cases = session::bench_cases();
  std::size_t width = 0;
  for (const auto& c : cases) width = std::max(width, c.name.size());
  for (const auto& c : cases) {
    std::cout << std::left << std::setw(static_cast<int>(width) + 2) << c.name << c.what << "\n";
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& root) {
  auto o = std::make_shared<session::BenchRequest>();
  CLI::App* app = root.add_subcommand(
      "bench",
      "Measure bandwidth and latency of every GPU pair and host link, verifying every transfer");
  app->add_flag("--list", o->list, "List the benchmark cases, one line each, and exit");
  app->add_option("--gpus", o->sweep.gpus, "CUDA ordinals to measure, e.g. 0,1 (default: all)");
  app->add_option(
         "--logical-gpus", o->sweep.logical_gpus,
         "Place N logical GPUs round-robin on the selected devices and measure every pair of them: "
         "the per-pair paths of an N-GPU host run here, but the figures measure the tool, not the links")
      ->check(count_between(1, 64));
  app->add_option(
         "--sizes", o->sweep.sizes,
         "Copy sizes, e.g. 64M,1G, measured for every route (default: 4K, 16K, ... 256M and 512M, swept "
         "for one route per kind of path; every other route at 512M)")
      ->type_name("SIZE,...")
      ->check(byte_size_list_between(4, std::uint64_t{16} << 30));
  app->add_flag("--full", o->sweep.full,
                "Sweep every size for every route (thousands of figures on 8 GPUs)");
  app->add_option("--samples", o->sweep.samples, "Timed samples per figure; the median is reported")
      ->check(count_between(1, 1000));
  app->add_option("--warmup", o->sweep.warmup_samples,
                  "Untimed (but verified) samples before timing")
      ->check(count_between(0, 100));
  app->add_option("--copies", o->sweep.copies,
                  "Copies per timed sample (default: about 2 GiB per sample, 4 to 64)")
      ->check(count_between(0, 64));
  app->add_option("--json", o->json_path, "Write the results document to FILE (atomically)")
      ->type_name("FILE")
      ->check(file_path());
  add_junit_option(app, o->junit);
  add_jsonl_option(app, o->jsonl);
  add_gate_options(app, o->gate);
  add_init_timeout_option(app, o->init_timeout_s);
  add_exclusive_option(app, o->exclusive);
  app->add_flag("--no-affinity", o->sweep.no_affinity,
                "Do not pin the host thread to the GPU's local CPUs");
  app->add_option(
         "--host-memory", o->sweep.host_memory,
         "Host buffers: pinned (cudaHostAlloc) or hugepages (2 MiB pages, cudaHostRegister)")
      ->check(CLI::IsMember({"pinned", "hugepages"}));
  // --benchmark_* flags go to Google Benchmark unchanged.
  app->allow_extras();
  app->footer(harness::kPassThroughHelp);
  return Command{app, [o, app] {
                   if (o->list) return print_case_list(*o);
                   OutputRequest paths;
                   // The tables are stdout's: only the lines may take it (they move the tables).
                   add_output(paths, "--json", o->json_path, false);
                   add_output(paths, "--junit", o->junit, false);
                   add_output(paths, "--jsonl", o->jsonl);
                   add_gate_inputs(paths, o->gate);
                   check_output_paths(paths);
                   o->extras = app->remaining();
                   return session::run_bench_session(*o);
                 }};
}

}  // namespace p2p::cli
