#include "cli/check_command.hpp"

#include <iostream>
#include <memory>

#include "check/health_check.hpp"
#include "cli/machine_outputs.hpp"

namespace p2p::cli {

Command add_check_command(CLI::App& root) {
  auto o = std::make_shared<ci::HealthCheckOptions>();
  CLI::App* app = root.add_subcommand(
      "check",
      "Node health check for schedulers and monitoring: --quick runs doctor, topology and gate (no "
      "benchmark) in seconds; exit 0 healthy, 1 unhealthy, 2 bad input");
  app->add_flag("--quick", o->quick, "doctor + topology + gate, no benchmark");
  app->add_flag("--brief", o->brief,
                "print only the verdict line (for scheduler and monitoring logs)");
  app->add_option("--expect", o->expect,
                  "Gate: golden topology (hwloc XML or snapshot) this host must match")
      ->type_name("FILE");
  app->add_option("--policy", o->policy,
                  "Gate: policy JSON (min_gpus, max_path, forbid, min_link, require_p2p)")
      ->type_name("FILE");
  app->add_option("--facts", o->facts, "Judge saved doctor facts instead of this host")
      ->type_name("FILE");
  app->add_option("--input", o->input, "Judge a topology file instead of this host")
      ->type_name("FILE");
  app->add_option(
         "--probe-timeout", o->probe_timeout_s,
         "Seconds each driver probe (device open, NVML, CUDA) may take (default 15; Slurm kills a "
         "health check after 60 s)")
      ->check(CLI::Range(1.0, 600.0));
  add_junit_option(app, o->junit);
  add_jsonl_option(app, o->jsonl);
  app->add_option("--prom", o->prom,
                  "Also write the results as a Prometheus textfile (atomically), for node_exporter")
      ->type_name("FILE.prom");
  return Command{app, [o] { return ci::run_health_check(*o, std::cout); }};
}

}  // namespace p2p::cli
