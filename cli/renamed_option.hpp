// An option's old name, kept working after the rename that gave one idea one name across the
// commands (--golden became --expect, nccl's --dtypes became --dtype): hidden from --help, it
// fills the same value and says once on stderr which name to use, so scripts keep running while
// their authors learn the new name.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

namespace p2p::cli {

template <class T>
CLI::Option* add_renamed_option(CLI::App* app, const std::string& old_name,
                                const std::string& new_name, T& target) {
  const std::string command = app->get_name();
  CLI::Option* o = app->add_option(old_name, target, "renamed " + new_name);
  o->group("");  // hidden
  o->each([command, old_name, new_name](const std::string&) {
    std::cerr << "p2pcheck: warning: " << command << ": " << old_name << " is deprecated; use "
              << new_name << "\n";
  });
  return o;
}

}  // namespace p2p::cli
