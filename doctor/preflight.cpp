#include "doctor/preflight.hpp"

#include "common/exit_codes.hpp"
#include "doctor/codes.hpp"

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
  if (p.status == "timed_out")
    return PreflightFailure{kExitHang, with_detail("the CUDA driver hung", p.detail) + "; " + kStuckDriverHint};
  if (p.status == "crashed")
    return PreflightFailure{kExitNoGpu, with_detail("the CUDA driver crashed", p.detail) + "; " + kStuckDriverHint};
  if (p.status == "library_missing")
    return PreflightFailure{kExitNoGpu, with_detail("no NVIDIA driver: libcuda.so.1 cannot be loaded", p.detail) +
                                            "; install the driver, or run `p2pcheck doctor`"};
  if (p.status != "completed")
    return PreflightFailure{kExitNoGpu, with_detail("the CUDA driver probe " + p.status, p.detail) + "; " +
                                            kStuckDriverHint};
  if (!p.init_result)
    return PreflightFailure{kExitNoGpu, with_detail("cuInit was not reached", p.detail) + "; `p2pcheck doctor` has the full verdict"};
  if (*p.init_result != 0) {
    const std::string why = cu_init_explanation(*p.init_result);
    return PreflightFailure{kExitNoGpu, "cuInit failed: " + cu_result_name(*p.init_result) +
                                            (why.empty() ? "" : "; " + why) + "; `p2pcheck doctor` has the full verdict"};
  }
  if (p.device_count.value_or(0) <= 0)
    return PreflightFailure{kExitNoGpu, "no CUDA devices: the driver initialised but reports 0 GPUs; `p2pcheck doctor` "
                                        "has the full verdict"};
  return std::nullopt;
}

}  // namespace p2p::doctor
