#include "cli/topo_command.hpp"

#include <iostream>
#include <memory>

#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "session/live_topology.hpp"
#include "topology/diff.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot_json.hpp"
#include "topology/topo_text.hpp"

namespace p2p::cli {

namespace {

topo::TopologySnapshot snapshot_for(const TopoOptions& opts) {
  topo::TopologySnapshot t =
      opts.input.empty() ? session::live_topology() : topo::load_topology(opts.input);
  if (!opts.environment.empty()) topo::apply_environment_facts_file(t, opts.environment);
  if (!opts.p2p.empty()) topo::apply_p2p_status_file(t, opts.p2p);
  return t;
}

}  // namespace

int run_topo_command(const TopoOptions& opts) {
  const topo::TopologySnapshot t = snapshot_for(opts);
  const std::string json_text = topo::snapshot_to_json_text(t);
  const std::string shown = opts.format == "json" ? json_text : topo::format_topology_text(t);
  // Save before printing: a failed save leaves neither a partial file nor output that looks like
  // success.
  if (!opts.save.empty()) write_text_file_atomically(opts.save, json_text);
  std::cout << shown << std::flush;
  return kExitOk;
}

int run_topo_diff_command(const TopoDiffOptions& opts) {
  const topo::TopologySnapshot before = topo::load_topology(opts.inputs.at(0));
  const topo::TopologySnapshot after = topo::load_topology(opts.inputs.at(1));
  const topo::TopologyDiff d = topo::diff_topologies(before, after);
  // The gate's verdict on A with B as its golden topology: what `gate --input A --expect B` says.
  topo::TopologySnapshot golden = after;
  golden.source = opts.inputs[1];
  const topo::GateDecision gate = topo::evaluate_gate(before, golden, std::nullopt);
  if (opts.format == "json") {
    nlohmann::json j = d;
    j["before"] = opts.inputs[0];
    j["after"] = opts.inputs[1];
    j["gate"] = gate;
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << topo::format_diff_text(d, opts.inputs[0], opts.inputs[1])
              << "\nGate on A with B as the golden topology (gate --input A --expect B):\n"
              << topo::format_gate_text(gate);
  }
  std::cout << std::flush;
  return d.same() ? kExitOk : kExitFailed;
}

Command add_topo_command(CLI::App& root) {
  auto opts = std::make_shared<TopoOptions>();
  auto diff_opts = std::make_shared<TopoDiffOptions>();
  CLI::App* app = root.add_subcommand(
      "topo", "Show the GPU topology (PCIe path classes, NVLink, affinity, environment)");
  app->add_option(
      "--input", opts->input,
      "Read an hwloc XML (lstopo --of xml, hwloc 2.x), a p2pcheck snapshot (JSON) or a text capture of "
      "nvidia-smi topo -m instead of this host");
  app->add_option("--p2p", opts->p2p,
                  "Add the per-pair P2P status of an nvidia-smi topo -p2p r|w|n|a|p capture");
  app->add_option("--environment", opts->environment,
                  "Environment facts (JSON) recorded where the --input XML was captured");
  app->add_option("--format", opts->format,
                  "text (matrix like nvidia-smi topo -m) or json (the snapshot)")
      ->check(CLI::IsMember({"text", "json"}));
  app->add_option("--save", opts->save, "Also write the snapshot JSON to FILE (atomically)");
  app->require_subcommand(0, 1);

  CLI::App* diff = app->add_subcommand(
      "diff",
      "Compare two topologies (hwloc XML, snapshot or nvidia-smi topo -m capture): changed pairs and class counts. "
      "Exit 0 same, 1 different");
  diff->add_option("A B", diff_opts->inputs, "The two topologies")->required()->expected(2);
  diff->add_option("--format", diff_opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));

  return Command{app, [opts, diff_opts, diff] {
                   return diff->parsed() ? run_topo_diff_command(*diff_opts)
                                         : run_topo_command(*opts);
                 }};
}

}  // namespace p2p::cli
