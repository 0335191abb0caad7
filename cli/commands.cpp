#include "cli/commands.hpp"

namespace p2p::cli {

std::vector<Command> add_all_commands(CLI::App& root) {
  std::vector<Command> all;
  (void)root;
  return all;
}

}  // namespace p2p::cli
