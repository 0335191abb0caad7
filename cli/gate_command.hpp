// `p2pcheck gate`: may this host run benchmarks? Exit 0 pass, 1 blocked, 2 bad input.
#pragma once

#include <string>

#include "cli/command.hpp"
#include "session/gate_run.hpp"

namespace p2p::cli {

struct GateOptions {
  session::GateRequest request;  // --input, --p2p, --expect, --policy
  std::string format = "text";
  std::string junit;  // JUnit XML of the reasons, "" = none
  std::string jsonl;  // JSON lines of the reasons, "" = none, "-" = stdout
};

int run_gate_command(const GateOptions& opts);

Command add_gate_command(CLI::App& root);

}  // namespace p2p::cli
