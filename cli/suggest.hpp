// "Did you mean": a mistyped command or option named in one line with the nearest real one,
// instead of CLI11's "A subcommand is required" or "The following arguments were not expected".
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace p2p::cli {

// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: "bnech" is one from
// "bench".
std::size_t edit_distance(const std::string& a, const std::string& b);

// The one candidate `typed` most likely meant: the only nearest within a third of its length
// (at least 1, at most 2 edits, and fewer edits than it has characters), or else the only
// candidate it begins. Case is ignored. nullopt when there is none or no single one.
std::optional<std::string> closest(const std::string& typed,
                                   const std::vector<std::string>& candidates);

// The first mistyped (sub)command or option in `args` (argv after the program name), as a
// line for "p2pcheck: error: ...":
//   unknown command 'benchh'; did you mean 'bench'?
//   unknown command 'topo difff'; did you mean 'topo diff'?
//   bench: unknown option '--sampels'; did you mean '--samples'?
//   'p2pcheck vm' needs a command: plan, compare
// nullopt when every command word and option is known (CLI11's own message stands then).
// Arguments of a command that passes extras on (bench, nccl) count when they are
// --benchmark_* flags; internal (hidden) commands are not checked.
std::optional<std::string> mistake_in(const CLI::App& root, const std::vector<std::string>& args);

}  // namespace p2p::cli
