// `p2pcheck gate`: may this host run benchmarks? Exit 0 pass, 1 blocked, 2 bad input.
#pragma once

#include <string>

#include "cli/command.hpp"

namespace p2p::cli {

struct GateOptions {
  std::string input;   // hwloc XML, snapshot JSON or nvidia-smi topo -m capture; "" = this host
  std::string p2p;     // nvidia-smi topo -p2p capture: answers require_p2p for --input
  std::string expect;  // golden topology (XML or snapshot)
  std::string policy;  // policy JSON
  std::string format = "text";
  std::string junit;  // JUnit XML of the reasons, "" = none
  std::string jsonl;  // JSON lines of the reasons, "" = none, "-" = stdout
};

int run_gate_command(const GateOptions& opts);

Command add_gate_command(CLI::App& root);

}  // namespace p2p::cli
