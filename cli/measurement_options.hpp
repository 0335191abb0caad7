// The options every measuring subcommand (bench, nccl) declares alike: the gate, the cuInit
// preflight's deadline and --exclusive. Header-only, so a build without CUDA still parses them;
// what they mean is session/.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/validators.hpp"
#include "common/output_paths.hpp"
#include "session/measurement_options.hpp"

namespace p2p::cli {

// --allow-env VAR: NCCL_P2P_DISABLE, NCCL_P2P_LEVEL=LOC or a CUDA_VISIBLE_DEVICES hiding GPUs
// block the gate, since the run cannot be about P2P under them; this accepts one, with a note.
inline void add_allow_env_option(CLI::App* app, std::vector<std::string>& allowed) {
  app->add_option("--allow-env", allowed,
                  "Accept this variable (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, CUDA_VISIBLE_DEVICES), "
                  "which otherwise blocks the gate: the run cannot be about P2P under it")
      ->type_name("VAR");
}

inline void add_gate_options(CLI::App* app, session::MeasurementGateOptions& o) {
  app->add_flag("--skip-gate", o.skip_gate,
                "Measure even if the gate blocks; recorded in the results");
  app->add_option("--expect", o.expect,
                  "Gate: golden topology (hwloc XML or snapshot) this host must match")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--policy", o.policy,
                  "Policy JSON: the gate's keys (min_gpus, max_path, ...) and the acceptance "
                  "thresholds (min_bandwidth, thresholds, floors, models, hosts)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--expect-gpus", o.expect_gpus,
                  "The GPUs this host must show; fewer fails the run's verdict")
      ->check(count_between(1, 4096));
  add_allow_env_option(app, o.allow_env);
}

inline void add_init_timeout_option(CLI::App* app, double& seconds) {
  app->add_option(
         "--init-timeout", seconds,
         "Seconds cuInit may take in the preflight child before the run stops as a hang (exit 5)")
      ->capture_default_str()
      ->check(seconds_between(0.1, 3600.0));
}

// The gate's files, inputs of every measuring command.
inline void add_gate_inputs(OutputRequest& paths, const session::MeasurementGateOptions& o) {
  add_input(paths, "--expect", o.expect);
  add_input(paths, "--policy", o.policy);
}

inline void add_exclusive_option(CLI::App* app, bool& exclusive) {
  app->add_flag(
      "--exclusive", exclusive,
      "Refuse to start (exit 6) when another process or p2pcheck run is using a GPU to be measured");
}

}  // namespace p2p::cli
