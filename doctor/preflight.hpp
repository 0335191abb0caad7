// Before bench or nccl touch the driver in their own process, cuInit and the device count run
// in a child (probe_cuda_init). A driver that hangs or crashes there would otherwise hang or
// crash p2pcheck itself, with no word about why. This judges what the child saw.
#pragma once

#include <optional>
#include <string>

#include "doctor/facts.hpp"

namespace p2p::doctor {

struct PreflightFailure {
  int exit_code = 0;    // kExitNoGpu (a crash, a failed child) or kExitHang
  std::string message;  // one line: what happened, where, and the doctor's advice
};

// A hang, a crash or a child that failed otherwise; nullopt for everything the process itself
// can safely meet and name (a missing driver, a cuInit error, no device) and for a healthy driver.
std::optional<PreflightFailure> preflight_failure(const CudaProbe& probe);

}  // namespace p2p::doctor
