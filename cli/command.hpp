// One subcommand = one file in cli/: `add_<name>_command` declares the options (no work in
// callbacks: CLI11 only catches its own ParseError), the returned `run` does the work and
// returns an exit code. Errors propagate as exceptions to main, which maps them to codes.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace p2p::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

}  // namespace p2p::cli
