#include "cli/cluster_command.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cli/merge_command.hpp"
#include "cli/node_command.hpp"
#include "cli/validators.hpp"
#include "cluster/cluster_options.hpp"
#include "common/error.hpp"
#include "mpi/launch_env.hpp"

#if P2P_HAVE_MPI
#include "cluster/cluster_mpi_run.hpp"
#endif

namespace p2p::cli {
namespace {

int run_cluster_command(cluster::ClusterOptions& o) {
  // One golden topology: each host's gate holds its own topology to --expect, and rank 0 holds
  // the fleet to it (where only the old --golden was given, both take that).
  if (o.outputs.golden.empty()) o.outputs.golden = o.node.expect;
  if (o.node.expect.empty()) o.node.expect = o.outputs.golden;
  OutputRequest paths = fleet_output_paths(o.outputs);
  add_input(paths, "--policy", o.node.policy);
  check_output_paths(paths);
#if P2P_HAVE_MPI
  return cluster::run_cluster_under_mpi(o);
#else
  (void)o;
  throw InputError(
      std::string("cluster: this p2pcheck was built without MPI: ") + mpi::kHowToGetMpi +
      "; or run `p2pcheck node --jsonl FILE` on each host and `p2pcheck merge` over the files");
#endif
}

}  // namespace

Command add_cluster_command(CLI::App& root) {
  auto o = std::make_shared<cluster::ClusterOptions>();
  CLI::App* app = root.add_subcommand(
      "cluster",
      "Fleet acceptance under MPI (mpirun/srun, one rank per host): every host runs node, rank 0 "
      "merges. Exit 0 all pass, 1 a host fails or has no result, 2 bad input or built without MPI");
  add_node_options(app, o->node);
  app->remove_option(app->get_option("--fixture-host"));
  // Test only, like node's: one DIR per rank, in rank order (hidden from --help).
  app->add_option("--fixture-host", o->fixture_hosts,
                  "TEST ONLY: rank N reads its host from the N-th DIR")
      ->group("");
  add_fleet_output_options(app, o->outputs, true);
  app->add_option(
         "--lines-dir", o->lines_dir,
         "Each host rank writes its lines to DIR/<host>-rank<N>.jsonl as they happen (default "
         "p2pcheck-lines; a shared file system lets `merge DIR/*.jsonl` read a killed job)")
      ->type_name("DIR");
  app->add_option(
         "--deadline", o->deadline_s,
         "Seconds from the start rank 0 waits for every host; a host not done by then has no result "
         "(default 3600)")
      ->check(seconds_between(1.0, 7.0 * 24 * 3600));
  app->add_flag(
      "--rank-per-gpu", o->rank_per_gpu,
      "The launcher started one rank per GPU: group ranks by host name, one chain per host");
  return Command{app, [o] { return run_cluster_command(*o); }};
}

}  // namespace p2p::cli
