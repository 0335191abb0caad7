#include "cli/merge_command.hpp"

#include <memory>

#include "cli/fleet_outputs.hpp"
#include "cluster/host_lines.hpp"

namespace p2p::cli {
namespace {

struct MergeCommandOptions {
  std::vector<std::string> files;
  FleetOutputOptions outputs;
};

int run_merge_command(const MergeCommandOptions& o) {
  const cluster::MergeOptions merge = read_merge_options(o.outputs);
  std::vector<cluster::HostRun> hosts;
  for (const auto& f : o.files) hosts.push_back(cluster::read_host_lines_file(f));
  return report_fleet(hosts, merge, o.outputs, "merge", 0);
}

}  // namespace

Command add_merge_command(CLI::App& root) {
  auto o = std::make_shared<MergeCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "merge", "Merge the JSON lines of many hosts (node --jsonl) into one fleet verdict: gate, odd topologies, "
               "outliers. Exit 0 all pass, 1 a host fails or has no result, 2 bad input");
  app->add_option("files", o->files, "One node --jsonl file per host")->required()->type_name("FILE...");
  add_fleet_output_options(app, o->outputs);
  return Command{app, [o] { return run_merge_command(*o); }};
}

}  // namespace p2p::cli
