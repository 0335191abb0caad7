#include "cli/compare_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "bench/sizes.hpp"
#include "cli/machine_outputs.hpp"
#include "cli/validators.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "nccl/results_section.hpp"
#include "report/check_cases.hpp"
#include "report/compare.hpp"
#include "report/compare_json.hpp"

namespace p2p::cli {
namespace {

struct CompareCommandOptions {
  std::string baseline;
  std::string run;
  double tolerance_pct = 5.0;
  std::string min_bytes = "64M";
  std::string format = "text";
  bool allow_logical = false;
  std::string junit;
};

int run_compare(const CompareCommandOptions& o) {
  report::CompareOptions options;
  options.tolerance_pct = o.tolerance_pct;
  options.min_bytes = bench::parse_size_bytes(o.min_bytes, "--min-bytes");
  options.allow_logical = o.allow_logical;
  const auto baseline = bench::read_bench_document_file(o.baseline);
  const auto run = bench::read_bench_document_file(o.run);
  // A malformed NCCL section is named by its file, as any other problem of a document.
  for (const auto* d : {&baseline, &run}) {
    if (!d->nccl.is_null())
      nccl::nccl_section_from_document(*d, d == &baseline ? o.baseline : o.run);
  }
  const report::Comparison c = report::compare_runs(baseline, run, options);
  if (o.format == "json") {
    std::cout << json_text(report::comparison_json(c, baseline, run)) << "\n";
  } else {
    std::cout << report::imported_lines(baseline, run) << report::logical_gpus_lines(baseline, run)
              << report::format_comparison(c, o.baseline, o.run, options);
  }
  std::cout << std::flush;
  write_junit(o.junit,
              {report::compare_suite(c, run.hostname.empty() ? this_hostname() : run.hostname,
                                     run.started_utc)});
  return c.regressions() > 0 ? kExitFailed : kExitOk;
}

}  // namespace

Command add_compare_command(CLI::App& root) {
  auto o = std::make_shared<CompareCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "compare",
      "Compare a bench or nccl run with a baseline run: exit 0 nothing regressed, 1 a figure regressed or was lost");
  app->add_option(
         "baseline", o->baseline,
         "Baseline results (p2pcheck bench --json, nccl --json, or import --json of peer tools' outputs)")
      ->required();
  app->add_option("run", o->run, "Results to judge against it")->required();
  app->add_option("--tolerance-pct", o->tolerance_pct,
                  "Moves smaller than this, either way, are noise (default 5)")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 100.0));
  app->add_option("--min-bytes", o->min_bytes,
                  "Judge bandwidth only at this copy size and above (default 64M)");
  app->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  app->add_flag("--allow-logical", o->allow_logical,
                "compare a run on logical GPUs (bench --logical-gpus) with one on physical GPUs");
  add_junit_option(app, o->junit);
  return Command{app, [o] { return run_compare(*o); }};
}

}  // namespace p2p::cli
