// The exit codes every command's --help ends with: one table, the one
// docs/outputs-and-exit-codes.md shows, so a script author reads what a code means where they read
// the options. A code means the same on every command; a command lists the codes it can give.
#pragma once

#include <string>
#include <vector>

namespace p2p::cli {

struct ExitCode {
  std::string code;                   // "0", "128+N"
  std::string meaning;                // one line
  std::vector<std::string> commands;  // command paths ("vm plan"); empty = every command
};

const std::vector<ExitCode>& exit_codes();

// The codes `command` ("bench", "topo diff"; "" for p2pcheck itself, which lists them all) can
// give. A group of subcommands ("vm") lists what any of its subcommands can give.
std::vector<ExitCode> exit_codes_of(const std::string& command);

// "Exit codes:" and one line per code of `command`.
std::string exit_codes_block(const std::string& command);

}  // namespace p2p::cli
