#include "cli/report_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "cli/renamed_option.hpp"
#include "cli/validators.hpp"
#include "common/exit_codes.hpp"
#include "common/output_paths.hpp"
#include "session/report_run.hpp"

namespace p2p::cli {
namespace {

int run_report_command(const session::ReportRequest& r) {
  OutputRequest paths;
  add_output(paths, "--html", r.out.empty() ? session::report_output_path(r.results) : r.out);
  add_inputs(paths, "results", r.results);
  add_input(paths, "--policy", r.policy);
  check_output_paths(paths);
  const std::string out = session::write_report(r);
  if (out != "-") std::cout << "p2pcheck report: wrote " << out << "\n";
  return kExitOk;
}

}  // namespace

Command add_report_command(CLI::App& root) {
  auto o = std::make_shared<session::ReportRequest>();
  CLI::App* app = root.add_subcommand(
      "report",
      "Turn a bench or nccl results document into one HTML page: heatmaps of every matrix, size charts; "
      "two documents side by side with what changed first");
  app->add_option(
         "results", o->results,
         "Results document (p2pcheck bench --json or nccl --json); two: the first beside the second")
      ->required()
      ->expected(1, 2);
  app->add_option("--html", o->out,
                  "HTML file to write, atomically; - for stdout (default: RESULTS with .html)")
      ->type_name("FILE|-")
      ->check(file_path());
  add_renamed_option(app, "--out", "--html", o->out)->check(file_path());
  app->add_option("--policy", o->policy,
                  "Judge each document under this policy (acceptance keys) for the page's verdict "
                  "instead of its own")
      ->type_name("FILE");
  add_allow_caveat_option(app, o->allow_caveats, "of a single document's run");
  return Command{app, [o] { return run_report_command(*o); }};
}

}  // namespace p2p::cli
