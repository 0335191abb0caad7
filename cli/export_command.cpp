#include "cli/export_command.hpp"

#include <ctime>
#include <iostream>
#include <memory>
#include <string>

#include "cli/validators.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/output_paths.hpp"
#include "session/export_run.hpp"

namespace p2p::cli {

namespace {

// --to/--out as they were before every command named an output by its kind: the one output
// --to names, at --out (stdout without it).
struct OldExportOptions {
  std::string to, out;
};

void apply_old_options(const OldExportOptions& old, session::ExportRequest& r) {
  if (old.to.empty()) {
    if (!old.out.empty())
      throw InputError("--out: export names its outputs by kind: give --junit FILE or --prom FILE");
    return;
  }
  std::cerr << "p2pcheck: warning: export: --to " << old.to << " --out FILE is deprecated; use "
            << (old.to == "junit" ? "--junit" : "--prom") << " FILE\n";
  (old.to == "junit" ? r.junit : r.prom) = old.out.empty() ? "-" : old.out;
}

}  // namespace

Command add_export_command(CLI::App& root) {
  auto o = std::make_shared<session::ExportRequest>();
  auto old = std::make_shared<OldExportOptions>();
  CLI::App* app = root.add_subcommand(
      "export",
      "Turn a results document, gate decision or doctor report into JUnit XML or a Prometheus textfile");
  app->add_option("document", o->document,
                  "bench/nccl --json results, gate --format json or doctor --format json output")
      ->required();
  app->add_option("--junit", o->junit,
                  "Write every check as a JUnit XML test case to FILE, atomically; - for stdout")
      ->type_name("FILE|-")
      ->check(file_path());
  app->add_option(
         "--prom", o->prom,
         "Write a Prometheus textfile to FILE (for node_exporter), atomically; - for stdout")
      ->type_name("FILE.prom|-")
      ->check(file_path());
  app->add_option("--to", old->to, "renamed --junit FILE or --prom FILE")
      ->group("")
      ->check(CLI::IsMember({"junit", "prometheus"}));
  app->add_option("--out", old->out, "renamed --junit FILE or --prom FILE")
      ->group("")
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
  add_allow_caveat_option(app, o->allow_caveats, "of a results document's run");
  return Command{app, [o, old] {
                   session::ExportRequest r = *o;
                   apply_old_options(*old, r);
                   OutputRequest paths;
                   add_output(paths, "--junit", r.junit);
                   add_output(paths, "--prom", r.prom);
                   add_input(paths, "document", r.document);
                   add_input(paths, "--policy", r.policy);
                   check_output_paths(paths);
                   session::write_export(r, static_cast<double>(std::time(nullptr)));
                   return static_cast<int>(kExitOk);
                 }};
}

}  // namespace p2p::cli
