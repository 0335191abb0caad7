#include "cli/node_command.hpp"

#include <memory>
#include <string>

#include "cli/validators.hpp"
#include "common/output_paths.hpp"

namespace p2p::cli {
namespace {

struct NodeCommandOptions {
  cluster::NodeOptions node;
  std::string jsonl;
};

}  // namespace

void add_node_options(CLI::App* app, cluster::NodeOptions& o) {
  app->add_option("--expect", o.expect,
                  "Gate: golden topology (hwloc XML or snapshot) this host must match")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--policy", o.policy,
                  "Gate: policy JSON (min_gpus, max_path, forbid, min_link, require_p2p)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_flag("--skip-gate", o.skip_gate,
                "Measure even if the gate blocks; recorded in the lines");
  app->add_option("--probe-timeout", o.probe_timeout_s,
                  "Seconds each doctor probe may take (default 15)")
      ->check(seconds_between(1.0, 600.0));
  session::BenchSweepRequest& b = o.bench;
  app->add_option("--gpus", b.gpus, "bench: CUDA ordinals to measure, e.g. 0,1 (default: all)");
  app->add_option("--sizes", b.sizes, "bench: copy sizes, e.g. 64M,1G (default: bench's sweep)")
      ->type_name("SIZE,...")
      ->check(byte_size_list_between(4, std::uint64_t{16} << 30));
  app->add_flag("--full", b.full, "bench: sweep every size for every route");
  app->add_option("--samples", b.samples, "bench: timed samples per figure")
      ->check(count_between(1, 1000));
  app->add_option("--warmup", b.warmup_samples, "bench: untimed samples before timing")
      ->check(count_between(0, 100));
  app->add_option("--copies", b.copies,
                  "bench: copies per timed sample (default: about 2 GiB per sample)")
      ->check(count_between(0, 64));
  app->add_option("--logical-gpus", b.logical_gpus,
                  "bench: N logical GPUs on the selected devices (measures the tool)")
      ->check(count_between(1, 64));
  app->add_flag("--no-affinity", b.no_affinity,
                "bench: do not pin the host thread to the GPU's local CPUs");
  app->add_option("--host-memory", b.host_memory, "bench: host buffers, pinned or hugepages")
      ->check(CLI::IsMember({"pinned", "hugepages"}));
  // Test only: CPU-only CI runs the whole fleet path from files (cluster/fixture_host.hpp). Hidden
  // from --help: the empty group keeps it out of the listing.
  app->add_option("--fixture-host", o.fixture_host,
                  "TEST ONLY: read this host's facts, topology and figures from DIR")
      ->group("");
}

Command add_node_command(CLI::App& root) {
  auto o = std::make_shared<NodeCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "node",
      "One host of a fleet run: doctor, topology, gate and bench, every item written as a JSON line as it "
      "happens (merge reads the files of many hosts). Exit: the worst step's");
  app->add_option("--jsonl", o->jsonl,
                  "Where the lines go as they happen (- for stdout; progress then goes to stderr)")
      ->type_name("FILE|-")
      ->required()
      ->check(file_path());
  add_node_options(app, o->node);
  return Command{app, [o] {
                   OutputRequest paths;
                   add_output(paths, "--jsonl", o->jsonl);
                   add_input(paths, "--expect", o->node.expect);
                   add_input(paths, "--policy", o->node.policy);
                   check_output_paths(paths);
                   return cluster::run_node(o->node, o->jsonl);
                 }};
}

}  // namespace p2p::cli
