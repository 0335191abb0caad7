// `p2pcheck infer` in a build without NCCL: the plan (--list) works, measuring does not.
#include <iostream>

#include "cli/infer_run.hpp"
#include "common/exit_codes.hpp"

namespace p2p::cli {

int run_infer(const InferCommandOptions&, const infer::InferPlan&) {
  std::cerr << "p2pcheck infer: this p2pcheck was built without NCCL (no CUDA compiler or nccl.h at build time); "
               "--list works without it\n";
  return kExitNoGpu;
}

Command add_infer_rank_command(CLI::App& root) {
  CLI::App* app = root.add_subcommand("infer-rank", "one rank process of `p2pcheck infer`");
  app->group("");
  app->allow_extras();
  return Command{app, [] { return run_infer(InferCommandOptions{}, infer::InferPlan{}); }};
}

}  // namespace p2p::cli
