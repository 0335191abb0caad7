#include "cli/compare_command.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "cli/machine_outputs.hpp"
#include "cli/validators.hpp"
#include "common/json_text.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "report/check_cases.hpp"
#include "report/compare.hpp"
#include "report/compare_json.hpp"
#include "session/compare_run.hpp"

namespace p2p::cli {
namespace {

struct CompareCommandOptions {
  session::CompareRequest request;  // the two documents, --tolerance-pct, --min-bytes, ...
  std::string format = "text";
  std::string junit;
};

int run_compare_command(const CompareCommandOptions& o) {
  OutputRequest paths;
  add_output(paths, "--junit", o.junit);
  add_input(paths, "baseline", o.request.baseline);
  add_input(paths, "run", o.request.run);
  if (o.format == "json") paths.stdout_owner = "--format json";
  check_output_paths(paths);
  std::ostream& text = output_takes_stdout(paths) ? std::cerr : std::cout;
  const session::CompareOutcome c = session::run_compare(o.request);
  if (o.format == "json") {
    std::cout << json_text(report::comparison_json(c.comparison, c.baseline, c.run)) << "\n";
  } else {
    text << terminal_text(
        report::imported_lines(c.baseline, c.run) + report::logical_gpus_lines(c.baseline, c.run) +
        report::format_comparison(c.comparison, o.request.baseline, o.request.run, c.options));
  }
  std::cout << std::flush;
  write_junit(o.junit, {report::compare_suite(c.comparison, c.host, c.run.started_utc)});
  return c.exit_code;
}

}  // namespace

Command add_compare_command(CLI::App& root) {
  auto o = std::make_shared<CompareCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "compare",
      "Compare a bench or nccl run with a baseline run: exit 0 when the run may stand in for the "
      "baseline, 1 when a figure regressed, was lost or is missing, or the run carries a caveat "
      "(interrupted, shared, ...) the baseline does not");
  app->add_option(
         "baseline", o->request.baseline,
         "Baseline results (p2pcheck bench --json, nccl --json, or import --json of peer tools' outputs)")
      ->required();
  app->add_option("run", o->request.run, "Results to judge against it")->required();
  app->add_option("--tolerance-pct", o->request.tolerance_pct,
                  "Moves smaller than this, either way, are noise (default 5; 10 between different "
                  "tools, e.g. an nvbandwidth import against a p2pcheck run)")
      ->check(number_between(0.0, 100.0, "percent"));
  app->add_option("--min-bytes", o->request.min_bytes,
                  "Judge bandwidth only at this copy size and above (default 64M)")
      ->type_name("SIZE")
      ->check(byte_size_between(1, std::uint64_t{16} << 30));
  app->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  app->add_flag("--common-sizes", o->request.common_sizes,
                "where the runs measured different sizes, compare only the sizes both have");
  app->add_flag("--allow-logical", o->request.allow_logical,
                "compare a run on logical GPUs (bench --logical-gpus) with one on physical GPUs");
  app->add_option("--allow-missing", o->request.allow_missing,
                  "Figures of the baseline the run lacks do not fail the comparison; say why "
                  "(\"gpu7 is out for repair\")")
      ->type_name("REASON")
      ->check([](const std::string& reason) {
        // Blank or only white space (a line break included) says nothing, and a reason is one
        // line of text: it is printed in the verdict's lines.
        if (reason.find_first_not_of(" \t\r\n\v\f") == std::string::npos)
          return std::string("say why the figures may be missing");
        const bool control = std::any_of(reason.begin(), reason.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        });
        return control ? std::string("the reason must be one line of text") : std::string();
      });
  add_allow_caveat_option(app, o->request.allow_caveats, "of the run");
  add_junit_option(app, o->junit);
  return Command{app, [o] { return run_compare_command(*o); }};
}

}  // namespace p2p::cli
