// The built executable's --help, walked as a newcomer would: the commands the top-level help
// lists, then the commands each of those lists. Header-only; test code only.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "common/testing/run_captured.hpp"

namespace p2p::testing {

inline CliResult p2pcheck(const std::string& args) {
  return run_captured(std::string(P2PCHECK_EXE) + " " + args);
}

// `p2pcheck <path> --help` ("" for the top level), which must succeed.
// COLUMNS is unset: help is then wrapped to its default width, whatever the terminal running the
// tests says.
inline std::string help_of(const std::string& path) {
  const CliResult r = run_captured("env -u COLUMNS " + std::string(P2PCHECK_EXE) + " " + path +
                                   (path.empty() ? "" : " ") + "--help");
  if (r.exit_code != 0) return "exit " + std::to_string(r.exit_code) + ": " + r.err;
  return r.out;
}

// The names under "Subcommands:" in a help text.
inline std::vector<std::string> listed_commands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help.substr(help.find("\nSubcommands:\n") == std::string::npos
                                        ? help.size()
                                        : help.find("\nSubcommands:\n") + 14));
  for (std::string line; std::getline(in, line) && line.rfind("  ", 0) == 0;) {
    if (line.size() > 2 && line[2] == ' ') continue;  // a description wrapped onto its own line
    std::istringstream words(line);
    std::string name;
    if (words >> name) names.push_back(name);
  }
  return names;
}

// The example lines of a help text: the indented lines under "Examples:" up to a blank line.
inline std::vector<std::string> examples_in(const std::string& help) {
  std::vector<std::string> found;
  const auto at = help.find("\nExamples:\n");
  if (at == std::string::npos) return found;
  std::istringstream in(help.substr(at + 11));
  for (std::string line; std::getline(in, line) && line.rfind("  ", 0) == 0;) {
    found.push_back(line.substr(2));
  }
  return found;
}

// "" (the top level) and every command path below it ("topo", "topo diff", ...).
inline std::vector<std::string> command_paths() {
  std::vector<std::string> paths = {""};
  for (std::size_t i = 0; i < paths.size(); ++i) {
    for (const auto& name : listed_commands(help_of(paths[i]))) {
      paths.push_back(paths[i].empty() ? name : paths[i] + " " + name);
    }
  }
  return paths;
}

}  // namespace p2p::testing
