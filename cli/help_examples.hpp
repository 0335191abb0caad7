// The "Examples:" block at the foot of every command's --help: commands that run as shown
// (cli/tests/help_cli_test.cpp runs each one, with the files it names standing in its folder).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace p2p::cli {

struct HelpExamples {
  std::string command;             // the words after `p2pcheck` ("topo diff"); "" for p2pcheck
  std::vector<std::string> lines;  // "p2pcheck topo diff vm-topo.txt lxc-topo.txt  # why"
};

const std::vector<HelpExamples>& help_examples();

// Puts each command's examples at the top of its --help footer, then its exit codes
// (exit_codes.hpp), before what the command says there itself; drops a footer a subcommand only
// inherited from its parent (CLI11 copies it).
void add_examples(CLI::App& root);

}  // namespace p2p::cli
