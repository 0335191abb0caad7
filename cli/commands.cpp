#include "cli/commands.hpp"

#include "cli/bench_command.hpp"

namespace p2p::cli {

std::vector<Command> add_all_commands(CLI::App& root) {
  std::vector<Command> all;
  all.push_back(add_bench_command(root));
  return all;
}

}  // namespace p2p::cli
