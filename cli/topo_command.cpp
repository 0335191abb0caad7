#include "cli/topo_command.hpp"

#include <iostream>
#include <memory>

#include "cli/renamed_option.hpp"
#include "cli/validators.hpp"
#include "common/exit_codes.hpp"
#include "common/json_text.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "session/topo_run.hpp"
#include "topology/topo_text.hpp"

namespace p2p::cli {

int run_topo_command(const TopoOptions& opts) {
  OutputRequest paths;
  add_output(paths, "--json", opts.request.save, false);  // topo --format json prints it there
  add_input(paths, "--input", opts.request.input);
  add_input(paths, "--p2p", opts.request.p2p);
  add_input(paths, "--environment", opts.request.environment);
  check_output_paths(paths);
  const session::TopoOutcome t = session::run_topo(opts.request);
  // The text carries names read from files (a hostname, GPU names, a capture's rows): written for
  // a terminal (terminal_text), as every text output of a file's strings is.
  std::cout << (opts.format == "json" ? t.snapshot_json
                                      : terminal_text(topo::format_topology_text(t.snapshot)));
  if (opts.format != "json" && !t.nccl_topo_file.empty())
    std::cout << terminal_text("\nNCCL topology file: " + t.nccl_topo_file + "\n");
  if (opts.format != "json") std::cout << terminal_text(topo::topology_verdict_line(t.snapshot));
  std::cout << std::flush;
  return kExitOk;
}

int run_topo_diff_command(const TopoDiffOptions& opts) {
  const session::TopoDiffOutcome d = session::run_topo_diff(opts.inputs.at(0), opts.inputs.at(1));
  if (opts.format == "json") {
    nlohmann::json j = d.diff;
    j["before"] = opts.inputs[0];
    j["after"] = opts.inputs[1];
    j["gate"] = d.gate;
    if (!d.prospects.pairs.empty()) j["gpudirect_cliques"] = vm::prospects_json(d.prospects);
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << terminal_text(
        topo::format_diff_text(d.diff, opts.inputs[0], opts.inputs[1]) +
        "\nGate on A with B as the golden topology (gate --input A --expect B):\n" +
        topo::format_gate_text(d.gate) + vm::format_prospects_text(d.prospects) +
        topo::diff_verdict_line(d.diff));
  }
  std::cout << std::flush;
  return d.exit_code;
}

Command add_topo_command(CLI::App& root) {
  auto opts = std::make_shared<TopoOptions>();
  auto diff_opts = std::make_shared<TopoDiffOptions>();
  CLI::App* app = root.add_subcommand(
      "topo", "Show the GPU topology (PCIe path classes, NVLink, affinity, environment)");
  app->add_option(
         "--input", opts->request.input,
         "Read an hwloc XML (lstopo --of xml, hwloc 1.x or 2.x), a p2pcheck snapshot (JSON) or a text capture of "
         "nvidia-smi topo -m instead of this host")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--p2p", opts->request.p2p,
                  "Add the per-pair P2P status of an nvidia-smi topo -p2p r|w|n|a|p capture")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--environment", opts->request.environment,
                  "Environment facts (JSON) recorded where the --input XML was captured")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--format", opts->format,
                  "text (matrix like nvidia-smi topo -m) or json (the snapshot)")
      ->check(CLI::IsMember({"text", "json"}));
  app->add_option("--json", opts->request.save, "Also write the snapshot JSON to FILE (atomically)")
      ->type_name("FILE")
      ->check(file_path());
  add_renamed_option(app, "--save", "--json", opts->request.save)->check(file_path());
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
