// The first thing bench and nccl do with the driver: cuInit and the device count in a child
// with a deadline (doctor::probe_cuda_init), so a driver that hangs or crashes there ends the
// run with one line and exit 5 or 3 instead of hanging or crashing p2pcheck.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace p2p::cli {

// Seconds the child may take; the doctor allows its probes as long.
constexpr double kDefaultInitTimeoutS = 45.0;

// Header-only, so a build without CUDA still parses the option.
inline void add_init_timeout_option(CLI::App* app, double& seconds) {
  app->add_option("--init-timeout", seconds,
                  "Seconds cuInit may take in the preflight child before the run stops as a hang (exit 5)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
}

// Throws HangError (exit 5) or NoGpuError (exit 3) naming the cause; returns when the driver
// initialised and reported at least one device. `command` prefixes the message ("bench").
void require_responsive_driver(const std::string& command, double timeout_s);

}  // namespace p2p::cli
