#include "cli/merge_command.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cli/machine_outputs.hpp"
#include "cli/renamed_option.hpp"
#include "cli/validators.hpp"

namespace p2p::cli {
namespace {

struct MergeCommandOptions {
  std::vector<std::string> files;
  cluster::FleetOutputOptions outputs;
};

}  // namespace

void add_fleet_output_options(CLI::App* app, cluster::FleetOutputOptions& o,
                              bool expect_is_the_nodes) {
  if (!expect_is_the_nodes)
    app->add_option(
           "--expect", o.golden,
           "Topology every host must match (snapshot or hwloc XML); default: the topology most hosts have")
        ->type_name("FILE")
        ->check(file_path());
  add_renamed_option(app, "--golden", "--expect", o.golden)->check(file_path());
  app->add_option(
         "--json", o.json,
         "Write the cluster document (p2pcheck.cluster.run) to FILE (atomically; - for stdout)")
      ->type_name("FILE|-")
      ->check(file_path());
  add_junit_option(app, o.junit);
  app->add_option(
         "--z-threshold", o.z_threshold,
         "Flag a host whose figure lies beyond this modified z-score from the fleet's median (default 3.5)")
      ->check(number_between(1.0, 100.0));
  add_allow_caveat_option(app, o.allow_caveats, "of a host's run");
}

OutputRequest fleet_output_paths(const cluster::FleetOutputOptions& o) {
  OutputRequest paths;
  add_output(paths, "--json", o.json);
  add_output(paths, "--junit", o.junit);
  add_input(paths, "--expect", o.golden);
  return paths;
}

Command add_merge_command(CLI::App& root) {
  auto o = std::make_shared<MergeCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "merge",
      "Merge the JSON lines of many hosts (node --jsonl) into one fleet verdict: gate, odd topologies, "
      "outliers. Exit 0 all pass, 1 a host fails or has no result, 2 bad input");
  app->add_option("files", o->files, "One node --jsonl file per host")
      ->required()
      ->type_name("FILE...");
  add_fleet_output_options(app, o->outputs, false);
  return Command{app, [o] {
                   OutputRequest paths = fleet_output_paths(o->outputs);
                   add_inputs(paths, "FILE", o->files);
                   check_output_paths(paths);
                   return cluster::merge_host_files(o->files, o->outputs);
                 }};
}

}  // namespace p2p::cli
