#include "cli/export_command.hpp"

#include <ctime>
#include <iostream>
#include <memory>
#include <string>

#include "cli/machine_outputs.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "report/export_input.hpp"
#include "report/junit.hpp"

namespace p2p::cli {
namespace {

struct ExportOptions {
  std::string document;
  std::string to;
  std::string out = "-";
  std::string hostname;
};

int run_export(const ExportOptions& o) {
  const bool override_host = !o.hostname.empty();
  const report::ExportInput in =
      report::read_export_input(read_json_file(o.document), o.document,
                                override_host ? o.hostname : this_hostname(), override_host);
  if (o.out != "-" && same_file(o.out, o.document)) {
    throw InputError(o.out + ": is the document being read; refusing to overwrite it");
  }
  std::string text;
  if (o.to == "junit") {
    text = report::render_junit(report::export_suites(in));
  } else {
    text = report::export_prometheus(in, static_cast<double>(std::time(nullptr)));
  }
  write_text_file_atomically(o.out, text);
  return kExitOk;
}

}  // namespace

Command add_export_command(CLI::App& root) {
  auto o = std::make_shared<ExportOptions>();
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
      ->type_name("FILE");
  app->add_option(
      "--hostname", o->hostname,
      "Host name the output is filed under (default: the document's own; for gate and doctor output, "
      "this host's)");
  return Command{app, [o] { return run_export(*o); }};
}

}  // namespace p2p::cli
