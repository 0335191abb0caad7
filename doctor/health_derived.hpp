// Pure readings of a GPU's health: what its NVML health facts and the Xids the kernel log
// attributes to it say about its memory, the recovery the driver asks for, NVLink, throttling,
// processes, MIG and the vGPU licence. rules_health.cpp turns them into findings and
// verdict_health.cpp into causes; both speak of the same GPUs by bus id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "doctor/derived.hpp"
#include "doctor/facts.hpp"
#include "doctor/knowledge/xid_catalog.hpp"

namespace p2p::doctor {

// One Xid the kernel log holds, with NVIDIA's catalog row.
struct XidEvent {
  int xid = 0;
  std::string gpu;  // bus id ("0000:41:00.0"); "" when the line names none
  std::string line;
  const XidInfo* info = nullptr;                     // nullptr: not in the catalog
  XidSeverity severity = XidSeverity::kApplication;  // the catalog's, or as the line refines it
  bool current = true;  // false when the driver was loaded again after it (history)
};
std::vector<XidEvent> xid_events(const Facts& f);  // in log order

// The Xids failing a GPU now, by the cause they belong to: failing memory, NVLink, or a reset the
// GPU needs. Xid 79 (a lost GPU) and 119/120 (GSP stopped answering) have causes of their own.
struct FailingXids {
  std::vector<XidEvent> memory, nvlink, reset;
};
FailingXids failing_xids(const Facts& f);

// What one GPU's readings say: failures (acceptance fails), warnings (with their counts), and
// what the failures call for.
struct HealthReading {
  std::string gpu;
  std::vector<std::string> failing;
  std::vector<std::string> warnings;
  bool needs_reset = false;   // a reset (or reboot) applies a pending remap or clears the state
  bool needs_reboot = false;  // the driver asks for the node itself to restart
  bool replace = false;       // NVIDIA's replacement criteria are met (remap failed, page budget)
};

// NVIDIA's dynamic page retirement budget: a GPU that has retired this many pages qualifies for
// replacement (https://docs.nvidia.com/deploy/dynamic-page-retirement/).
constexpr std::uint64_t kRetiredPagesReplaceAt = 60;

// ECC counters, page retirement, row remapping, and a context refused for ECC (CUDA 214).
HealthReading memory_reading(const GpuView& g);
// The recovery action NVML reports and NVML queries answered "GPU is lost" or "reset required".
HealthReading recovery_reading(const GpuView& g);
// Clock event reasons, their durations, temperature against the slowdown threshold.
HealthReading throttle_reading(const GpuView& g);

// NVML devices whose handle NVML could not get (no bus id), as "NVML device N", with their
// return code; and the bus ids they most likely are (GPUs on the bus NVML lists no device for).
struct LostDevices {
  std::vector<std::string> nvml_devices;  // "NVML device 1: NVML_ERROR_GPU_IS_LOST"
  std::vector<std::string> gpus;          // bus ids
};
LostDevices lost_devices(const Facts& f);

// Whether any GPU carries health facts (the NVML probe ran with this p2pcheck).
bool health_collected(const Facts& f);

// "1.5 s", "2 min": how long the clocks were held down.
std::string duration_text(std::uint64_t ns);

}  // namespace p2p::doctor

namespace p2p::doctor {

// The fixes the rules and causes give for these readings, in one place so that they agree.
// Failing memory: reset (or reboot, for pending page retirement) and replace when NVIDIA's
// criteria are met or errors recur.
std::string memory_fix(const std::vector<HealthReading>& failing);
// A GPU the driver wants reset (or the node rebooted).
std::string reset_fix(const std::vector<std::string>& gpus, bool reboot);

}  // namespace p2p::doctor
