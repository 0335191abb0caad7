#include "doctor/preflight.hpp"

#include "common/exit_codes.hpp"

namespace p2p::doctor {

namespace {

// The doctor's advice for a driver that crashed or hung in cuInit (check_cuinit says the same).
constexpr const char* kStuckDriverHint =
    "check the kernel log (dmesg: Xid, NVRM) and retry after a GPU reset; `p2pcheck doctor` has the full verdict";

std::string with_detail(const std::string& what, const std::string& detail) {
  return detail.empty() ? what : what + " (" + detail + ")";
}

}  // namespace

std::optional<PreflightFailure> preflight_failure(const CudaProbe& p) {
  if (p.status == ProbeStatus::kTimedOut)
    return PreflightFailure{
        kExitHang, with_detail("the CUDA driver hung", p.detail) + "; " + kStuckDriverHint};
  if (p.status == ProbeStatus::kCrashed)
    return PreflightFailure{
        kExitNoGpu, with_detail("the CUDA driver crashed", p.detail) + "; " + kStuckDriverHint};
  if (p.status == ProbeStatus::kFailed)
    return PreflightFailure{kExitNoGpu, with_detail("the CUDA driver probe failed", p.detail) +
                                            "; " + kStuckDriverHint};
  // No driver, a cuInit that returned an error, no device: safe to meet in this process, where
  // bench's own check (bench/measure/no_gpu.hpp) names them as it always has.
  return std::nullopt;
}

}  // namespace p2p::doctor
