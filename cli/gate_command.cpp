#include "cli/gate_command.hpp"

#include <iostream>
#include <memory>

#include "cli/machine_outputs.hpp"
#include "cli/measurement_options.hpp"
#include "cli/validators.hpp"
#include "common/json_text.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "common/utc_time.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/gate_run.hpp"
#include "session/live_peer_access.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

namespace p2p::cli {

int run_gate_command(const GateOptions& opts) {
  OutputRequest paths;
  add_output(paths, "--junit", opts.junit);
  add_output(paths, "--jsonl", opts.jsonl);
  add_input(paths, "--input", opts.request.input);
  add_input(paths, "--p2p", opts.request.p2p);
  add_input(paths, "--expect", opts.request.expect);
  add_input(paths, "--policy", opts.request.policy);
  if (opts.format == "json") paths.stdout_owner = "--format json";
  check_output_paths(paths);
  const std::unique_ptr<JsonLines> lines = open_jsonl_beside(opts.jsonl, opts.format);
  const session::GateOutcome g = session::run_gate(opts.request, session::live_peer_access_check());
  std::ostream& text = output_takes_stdout(paths) ? std::cerr : std::cout;
  if (opts.format == "json") {
    nlohmann::json j = g.decision;
    j["source"] = g.source;
    std::cout << json_text(j) << "\n";
  } else {
    // Where the snapshot was taken before what the gate made of it: the decision and its next
    // step come last.
    text << terminal_text("Topology: " + g.source + " (" + std::to_string(g.gpu_count) +
                          " GPUs)\nEnvironment: " + topo::describe_environment(g.environment) +
                          "\n" + topo::format_gate_text(g.decision) +
                          topo::gate_verdict_line(g.decision, "gate"));
  }
  std::cout << std::flush;
  if (lines) {
    for (const auto& l : report::gate_lines(g.decision, "gate", g.host, utc_now_iso8601()))
      lines->write(l);
  }
  write_junit(opts.junit, {report::gate_suite(g.decision, g.host, utc_now_iso8601())});
  return g.exit_code;
}

Command add_gate_command(CLI::App& root) {
  auto opts = std::make_shared<GateOptions>();
  CLI::App* app = root.add_subcommand(
      "gate", "Decide whether this host may run benchmarks. Exit 0 pass, 1 blocked, 2 bad input");
  app->add_option(
         "--input", opts->request.input,
         "Topology to judge (hwloc XML, snapshot JSON or nvidia-smi topo -m capture) instead of this host")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option(
         "--p2p", opts->request.p2p,
         "nvidia-smi topo -p2p capture of the --input host: answers require_p2p pair by pair")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option(
         "--expect", opts->request.expect,
         "Golden topology (hwloc XML, snapshot or nvidia-smi topo -m capture): block unless GPU count and "
         "every pair's class are equal")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option(
         "--policy", opts->request.policy,
         "Policy JSON: the gate's keys (min_gpus, max_path, forbid, min_link {gen, width}, "
         "require_p2p, require_cliques); acceptance thresholds in it are for bench and nccl")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--expect-gpus", opts->request.expect_gpus,
                  "The GPUs this host must show: block when the topology has fewer")
      ->check(count_between(1, 4096));
  add_allow_env_option(app, opts->request.allow_env);
  app->add_option("--format", opts->format, "text or json (the decision, as bench records it)")
      ->check(CLI::IsMember({"text", "json"}));
  add_junit_option(app, opts->junit);
  add_jsonl_option(app, opts->jsonl);
  return Command{app, [opts] { return run_gate_command(*opts); }};
}

}  // namespace p2p::cli
