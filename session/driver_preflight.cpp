#include "session/driver_preflight.hpp"

#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/preflight.hpp"

namespace p2p::session {

void require_responsive_driver(const std::string& command, double timeout_s) {
  const auto failure =
      doctor::preflight_failure(doctor::probe_cuda_init(static_cast<int>(timeout_s * 1000)));
  if (!failure) return;
  const std::string line = command + ": " + failure->message;
  if (failure->exit_code == kExitHang) throw HangError(line);
  throw NoGpuError(line);
}

}  // namespace p2p::session
