// What NVML says about one GPU's health: memory errors and their repair (ECC, retired pages,
// remapped rows), the recovery the driver asks for, who holds the GPU, PCIe replays, why the
// clocks are held down, temperature and power against their limits, MIG and the vGPU licence.
// The facts `nvidia-smi -q` prints, as data (doctor/tests/fixtures hold hosts that show them).
//
// Every value is optional: older drivers lack some queries and most GPUs do not support all of
// them (no ECC on most GeForce cards, no row remapping before Ampere). null means "NVML did not
// give it" (not supported, or the query is missing from this library); a query that failed for
// another reason is listed in query_errors with its nvmlReturn_t, so a GPU that is lost
// (NVML_ERROR_GPU_IS_LOST, 15) or needs a reset (NVML_ERROR_RESET_REQUIRED, 16) is on record.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace p2p::doctor {

// A process holding a GPU, as NVML lists it.
struct NvmlProcess {
  unsigned int pid = 0;
  std::string kind;  // "compute" | "graphics"
  std::optional<std::uint64_t> used_memory_bytes;
  // /proc/<pid>/comm where the prober could read it; null in another PID namespace.
  std::optional<std::string> name;
};

// NVML's clock event (throttle) reason bits (nvml.h, nvmlClocksEventReason*).
namespace clock_event {
constexpr std::uint64_t kGpuIdle = 0x1;
constexpr std::uint64_t kApplicationsClocks = 0x2;
constexpr std::uint64_t kSwPowerCap = 0x4;
constexpr std::uint64_t kHwSlowdown = 0x8;
constexpr std::uint64_t kSyncBoost = 0x10;
constexpr std::uint64_t kSwThermalSlowdown = 0x20;
constexpr std::uint64_t kHwThermalSlowdown = 0x40;
constexpr std::uint64_t kHwPowerBrakeSlowdown = 0x80;
constexpr std::uint64_t kDisplayClock = 0x100;
}  // namespace clock_event

// nvmlDeviceGpuRecoveryAction_t (NVML_FI_DEV_GET_GPU_RECOVERY_ACTION).
namespace recovery_action {
constexpr int kNone = 0;
constexpr int kGpuReset = 1;
constexpr int kNodeReboot = 2;
constexpr int kDrainP2p = 3;
constexpr int kDrainAndReset = 4;
}  // namespace recovery_action

struct NvmlHealth {
  // NVML call -> nvmlReturn_t, for calls that failed with something other than "not supported".
  std::map<std::string, int> query_errors;

  std::optional<bool> ecc_mode_current;  // nvmlDeviceGetEccMode
  std::optional<bool> ecc_mode_pending;  // takes effect at the next reboot
  // nvmlDeviceGetTotalEccErrors: volatile since the driver loaded, aggregate over the GPU's life.
  std::optional<std::uint64_t> ecc_volatile_corrected;
  std::optional<std::uint64_t> ecc_volatile_uncorrected;
  std::optional<std::uint64_t> ecc_aggregate_corrected;
  std::optional<std::uint64_t> ecc_aggregate_uncorrected;

  // Dynamic page retirement (before Ampere): pages retired for multiple single-bit and for
  // double-bit errors, and whether some wait for a reboot to be retired.
  std::optional<std::uint64_t> retired_pages_single_bit;
  std::optional<std::uint64_t> retired_pages_double_bit;
  std::optional<bool> retired_pages_pending;

  // Row remapping (Ampere and newer): rows remapped for correctable and uncorrectable errors,
  // remaps waiting for a GPU reset, and whether a remap ever failed.
  std::optional<std::uint64_t> remapped_rows_correctable;
  std::optional<std::uint64_t> remapped_rows_uncorrectable;
  std::optional<bool> remapped_rows_pending;
  std::optional<bool> remapped_rows_failed;

  std::optional<int> recovery_action;  // recovery_action::k*; newer drivers only

  std::optional<std::vector<NvmlProcess>> processes;  // null: the process lists failed

  std::optional<std::uint64_t> pcie_replay_count;    // nvmlDeviceGetPcieReplayCounter
  std::optional<std::uint64_t> clock_event_reasons;  // clock_event::k* bits active now
  // Nanoseconds the clocks were held down for a reason, since the driver loaded (newer drivers):
  // "sw_power_cap", "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake".
  std::map<std::string, std::uint64_t> clock_event_ns;

  std::optional<int> temperature_c;
  std::optional<int> temperature_slowdown_c;  // the GPU slows down from here
  std::optional<int> temperature_shutdown_c;  // and shuts down from here
  std::optional<std::uint64_t> power_usage_mw;
  std::optional<std::uint64_t> power_limit_mw;  // the enforced limit

  std::optional<bool> mig_mode_current;  // nvmlDeviceGetMigMode
  std::optional<bool> mig_mode_pending;

  // In a vGPU guest (nvmlDeviceGetGridLicensableFeatures): whether the vGPU software licence is
  // held, and for which product. null where licensing does not apply.
  std::optional<bool> vgpu_licensed;
  std::optional<std::string> vgpu_license_product;
};

}  // namespace p2p::doctor
