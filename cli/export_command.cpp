#include "cli/export_command.hpp"

#include <ctime>
#include <iostream>
#include <memory>
#include <string>

#include "cli/validators.hpp"
#include "common/exit_codes.hpp"
#include "common/output_paths.hpp"
#include "session/export_run.hpp"

namespace p2p::cli {

Command add_export_command(CLI::App& root) {
  auto o = std::make_shared<session::ExportRequest>();
  CLI::App* app = root.add_subcommand(
      "export",
      "Turn a results document, gate decision or doctor report into JUnit XML or a Prometheus textfile");
  app->add_option("document", o->document,
                  "bench/nccl --json results, gate --format json or doctor --format json output")
      ->required();
  app->add_option("--to", o->to, "junit or prometheus")
      ->required()
      ->check(CLI::IsMember({"junit", "prometheus"}));
  app->add_option(
         "--out", o->out,
         "File to write, atomically (a .prom file for node_exporter); - for stdout (default)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--policy", o->policy,
                  "Judge a results document under this policy (acceptance keys, as judge reads "
                  "them) instead of its own verdict")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option(
         "--hostname", o->hostname,
         "Host name the output is filed under (default: the document's own; for gate and doctor output, "
         "this host's)")
      ->type_name("NAME")
      ->check(not_empty("a host name"));
  return Command{app, [o] {
                   OutputRequest paths;
                   add_output(paths, "--out", o->out);
                   add_input(paths, "document", o->document);
                   add_input(paths, "--policy", o->policy);
                   check_output_paths(paths);
                   session::write_export(*o, static_cast<double>(std::time(nullptr)));
                   return static_cast<int>(kExitOk);
                 }};
}

}  // namespace p2p::cli
