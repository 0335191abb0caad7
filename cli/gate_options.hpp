// The gate's options, shared by every measuring subcommand (bench, nccl). Header-only so a
// build without CUDA still parses them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace p2p::cli {

struct MeasurementGateOptions {
  bool skip_gate = false;
  std::string expect;  // golden topology (hwloc XML or snapshot)
  std::string policy;  // gate policy JSON
};

inline void add_gate_options(CLI::App* app, MeasurementGateOptions& o) {
  app->add_flag("--skip-gate", o.skip_gate, "Measure even if the gate blocks; recorded in the results");
  app->add_option("--expect", o.expect, "Gate: golden topology (hwloc XML or snapshot) this host must match");
  app->add_option("--policy", o.policy, "Gate: policy JSON (min_gpus, max_path, forbid, min_link, require_p2p)");
}

}  // namespace p2p::cli
