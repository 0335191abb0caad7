#include "cli/commands.hpp"

#include "cli/gate_command.hpp"
#include "cli/topo_command.hpp"

namespace p2p::cli {

std::vector<Command> add_all_commands(CLI::App& root) {
  std::vector<Command> all;
  all.push_back(add_topo_command(root));
  all.push_back(add_gate_command(root));
  return all;
}

}  // namespace p2p::cli
