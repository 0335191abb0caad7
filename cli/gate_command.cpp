#include "cli/gate_command.hpp"

#include <iostream>
#include <memory>
#include <optional>

#include "cli/machine_outputs.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/json_text.hpp"
#include "common/utc_time.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/live_topology.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

#if P2P_WITH_BENCH
#include "bench/measure/peer_access_check.hpp"
#endif

namespace p2p::cli {

int run_gate_command(const GateOptions& opts) {
  if (opts.expect.empty() && opts.policy.empty())
    throw InputError(
        "gate: nothing to check: give --expect FILE (golden topology) and/or --policy FILE");
  if (opts.jsonl == "-" && opts.format == "json")
    throw InputError(
        "--jsonl - and --format json both write to standard output: give --jsonl a file");
  const std::unique_ptr<JsonLines> lines = open_jsonl(opts.jsonl);
  // Read every file before discovering anything, so bad input fails fast and alone.
  std::optional<topo::GatePolicy> policy;
  if (!opts.policy.empty()) policy = topo::read_policy_file(opts.policy);
  std::optional<topo::TopologySnapshot> expected;
  if (!opts.expect.empty()) {
    expected = topo::load_topology(opts.expect);
    expected->source = opts.expect;  // the decision names the file the user gave as golden
  }
  if (!opts.p2p.empty() && opts.input.empty())
    throw InputError(
        "gate: --p2p describes a captured topology: give it with --input (this host is checked live)");
  topo::TopologySnapshot t =
      opts.input.empty() ? session::live_topology() : topo::load_topology(opts.input);
  if (!opts.p2p.empty()) topo::apply_p2p_status_file(t, opts.p2p);
  const std::string input = opts.input.empty() ? "this host" : opts.input;

  // require_p2p is a live question: on this host CUDA answers it (cudaDeviceCanAccessPeer per
  // pair); for a topology read from a file an nvidia-smi topo -p2p capture answers it, and
  // without one it stays recorded as still to be checked.
  topo::PeerAccessCheck peer_access;
#if P2P_WITH_BENCH
  if (opts.input.empty()) peer_access = bench::cuda_peer_access_check();
#endif
  const topo::GateDecision d = topo::evaluate_gate(t, expected, policy, peer_access);
  const std::string host = opts.input.empty() || t.hostname.empty() ? this_hostname() : t.hostname;
  std::ostream& text = lines && lines->to_stdout() ? std::cerr : std::cout;
  if (opts.format == "json") {
    nlohmann::json j = d;
    j["source"] = input;
    std::cout << json_text(j) << "\n";
  } else {
    text << "Topology: " << input << " (" << t.gpus.size() << " GPUs)\n"
         << topo::format_gate_text(d)
         << "Environment: " << topo::describe_environment(t.environment) << "\n";
  }
  std::cout << std::flush;
  if (lines) {
    for (const auto& l : report::gate_lines(d, "gate", host, utc_now_iso8601())) lines->write(l);
  }
  write_junit(opts.junit, {report::gate_suite(d, host, utc_now_iso8601())});
  return d.passed ? kExitOk : kExitFailed;
}

Command add_gate_command(CLI::App& root) {
  auto opts = std::make_shared<GateOptions>();
  CLI::App* app = root.add_subcommand(
      "gate", "Decide whether this host may run benchmarks. Exit 0 pass, 1 blocked, 2 bad input");
  app->add_option(
      "--input", opts->input,
      "Topology to judge (hwloc XML, snapshot JSON or nvidia-smi topo -m capture) instead of this host");
  app->add_option(
      "--p2p", opts->p2p,
      "nvidia-smi topo -p2p capture of the --input host: answers require_p2p pair by pair");
  app->add_option(
      "--expect", opts->expect,
      "Golden topology (hwloc XML, snapshot or nvidia-smi topo -m capture): block unless GPU count and "
      "every pair's class are equal");
  app->add_option("--policy", opts->policy,
                  "Policy JSON: min_gpus, max_path, forbid, min_link {gen, width}, require_p2p");
  app->add_option("--format", opts->format, "text or json (the decision, as bench records it)")
      ->check(CLI::IsMember({"text", "json"}));
  add_junit_option(app, opts->junit);
  add_jsonl_option(app, opts->jsonl);
  return Command{app, [opts] { return run_gate_command(*opts); }};
}

}  // namespace p2p::cli
