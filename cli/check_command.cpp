#include "cli/check_command.hpp"

#include <iostream>
#include <memory>

#include "check/health_check.hpp"
#include "cli/machine_outputs.hpp"
#include "cli/measurement_options.hpp"
#include "cli/validators.hpp"
#include "common/output_paths.hpp"

namespace p2p::cli {

Command add_check_command(CLI::App& root) {
  auto o = std::make_shared<ci::HealthCheckOptions>();
  CLI::App* app = root.add_subcommand(
      "check",
      "Node health check for schedulers and monitoring: --quick runs doctor, topology and gate (no "
      "benchmark) in seconds; exit 0 healthy, 1 unhealthy, 2 bad input");
  app->add_flag("--quick", o->quick, "doctor + topology + gate, no benchmark");
  app->add_flag("--brief", o->brief,
                "print only the verdict line, under 200 characters, the failed check's id and fix "
                "first (for scheduler and monitoring logs)");
  app->add_option("--expect-gpus", o->expect_gpus,
                  "The number of GPUs this node must have: fewer or more fails the check "
                  "(default: any number)")
      ->check(count_between(1, 1024));
  add_allow_env_option(app, o->allow_env);
  app->add_option("--expect", o->expect,
                  "Gate: golden topology (hwloc XML or snapshot) this host must match")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--policy", o->policy,
                  "Gate: policy JSON (min_gpus, max_path, forbid, min_link, require_p2p)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--facts", o->facts, "Judge saved doctor facts instead of this host")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--input", o->input, "Judge a topology file instead of this host")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option(
         "--probe-timeout", o->probe_timeout_s,
         "Seconds each driver probe (device open, NVML, CUDA) may take (default 15; Slurm kills a "
         "health check after 60 s)")
      ->check(seconds_between(1.0, 600.0));
  add_junit_option(app, o->junit);
  add_jsonl_option(app, o->jsonl);
  app->add_option("--prom", o->prom,
                  "Also write the results as a Prometheus textfile (atomically; - for stdout, the "
                  "check's lines then go to stderr), for node_exporter")
      ->type_name("FILE.prom")
      ->check(file_path());
  return Command{app, [o] {
                   OutputRequest paths;
                   add_output(paths, "--junit", o->junit);
                   add_output(paths, "--jsonl", o->jsonl, false);  // the check's lines are there
                   add_output(paths, "--prom", o->prom);
                   add_input(paths, "--expect", o->expect);
                   add_input(paths, "--policy", o->policy);
                   add_input(paths, "--facts", o->facts);
                   add_input(paths, "--input", o->input);
                   check_output_paths(paths);
                   return ci::run_health_check(*o,
                                               output_takes_stdout(paths) ? std::cerr : std::cout);
                 }};
}

}  // namespace p2p::cli
