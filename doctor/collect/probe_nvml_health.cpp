// The health half of the NVML probe: what `nvidia-smi -q` prints about memory errors, recovery,
// processes, PCIe replays, clocks, temperature, power, MIG and the vGPU licence, one query each.
// Runs in the NVML probe's child process (probe_nvml.cpp).
#include <fstream>
#include <string>
#include <vector>

#include "doctor/collect/driver_api_health.hpp"
#include "doctor/collect/nvml_calls.hpp"

namespace p2p::doctor {

namespace {

using namespace api;

using nvmlDeviceGetProcesses_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* count,
                                                  nvmlProcessInfo* infos);

// True when the query answered; a failure other than "not supported" is kept as a fact.
bool answered(nvmlReturn_t rc, const char* query, NvmlHealth& h) {
  if (rc == kNvmlSuccess) return true;
  if (rc != kNvmlNotSupported) h.query_errors[query] = rc;
  return false;
}

void read_ecc(const NvmlCalls& nv, nvmlDevice_t d, NvmlHealth& h) {
  unsigned int current = 0, pending = 0;
  if (const auto f = nv.fn<nvmlDeviceGetEnablePair_t>("nvmlDeviceGetEccMode");
      f != nullptr && answered(f(d, &current, &pending), "nvmlDeviceGetEccMode", h)) {
    h.ecc_mode_current = current != 0;
    h.ecc_mode_pending = pending != 0;
  }
  const auto total = nv.fn<nvmlDeviceGetTotalEccErrors_t>("nvmlDeviceGetTotalEccErrors");
  if (total == nullptr) return;
  auto count = [&](int type, int counter, std::optional<std::uint64_t>& out) {
    unsigned long long n = 0;
    if (answered(total(d, type, counter, &n), "nvmlDeviceGetTotalEccErrors", h)) out = n;
  };
  count(kNvmlCorrected, kNvmlVolatileEcc, h.ecc_volatile_corrected);
  count(kNvmlUncorrected, kNvmlVolatileEcc, h.ecc_volatile_uncorrected);
  count(kNvmlCorrected, kNvmlAggregateEcc, h.ecc_aggregate_corrected);
  count(kNvmlUncorrected, kNvmlAggregateEcc, h.ecc_aggregate_uncorrected);
}

void read_memory_repair(const NvmlCalls& nv, nvmlDevice_t d, NvmlHealth& h) {
  if (const auto f = nv.fn<nvmlDeviceGetRetiredPages_t>("nvmlDeviceGetRetiredPages")) {
    auto pages = [&](int cause, std::optional<std::uint64_t>& out) {
      unsigned int n = 0;  // 0 asks for the count only: INSUFFICIENT_SIZE when there are some
      const nvmlReturn_t rc = f(d, cause, &n, nullptr);
      if (rc == kNvmlInsufficientSize || answered(rc, "nvmlDeviceGetRetiredPages", h)) out = n;
    };
    pages(kNvmlRetiredMultipleSingleBit, h.retired_pages_single_bit);
    pages(kNvmlRetiredDoubleBit, h.retired_pages_double_bit);
  }
  unsigned int pending = 0;
  if (const auto f = nv.fn<nvmlDeviceGetUint_t>("nvmlDeviceGetRetiredPagesPendingStatus");
      f != nullptr && answered(f(d, &pending), "nvmlDeviceGetRetiredPagesPendingStatus", h))
    h.retired_pages_pending = pending != 0;
  unsigned int correctable = 0, uncorrectable = 0, remap_pending = 0, failed = 0;
  if (const auto f = nv.fn<nvmlDeviceGetRemappedRows_t>("nvmlDeviceGetRemappedRows");
      f != nullptr && answered(f(d, &correctable, &uncorrectable, &remap_pending, &failed),
                               "nvmlDeviceGetRemappedRows", h)) {
    h.remapped_rows_correctable = correctable;
    h.remapped_rows_uncorrectable = uncorrectable;
    h.remapped_rows_pending = remap_pending != 0;
    h.remapped_rows_failed = failed != 0;
  }
}

std::optional<std::uint64_t> field_number(const nvmlFieldValue& v) {
  if (v.nvmlReturn != kNvmlSuccess) return std::nullopt;
  switch (v.valueType) {
    case 1: return v.value.uiVal;
    case 2: return v.value.ulVal;
    case 3: return v.value.ullVal;
    case 4: return v.value.sllVal < 0 ? 0 : static_cast<std::uint64_t>(v.value.sllVal);
    case 5: return v.value.siVal < 0 ? 0 : static_cast<std::uint64_t>(v.value.siVal);
    case 6: return v.value.usVal;
    default: return std::nullopt;
  }
}

// The recovery action and the time the clocks spent held down, per reason (newer drivers).
void read_fields(const NvmlCalls& nv, nvmlDevice_t d, NvmlHealth& h) {
  const auto f = nv.fn<nvmlDeviceGetFieldValues_t>("nvmlDeviceGetFieldValues");
  if (f == nullptr) return;
  const std::pair<unsigned int, const char*> wanted[] = {
      {kFieldRecoveryAction, ""},
      {kFieldPerfPolicyPower, "sw_power_cap"},
      {kFieldSwThermalSlowdownNs, "sw_thermal_slowdown"},
      {kFieldHwThermalSlowdownNs, "hw_thermal_slowdown"},
      {kFieldHwPowerBrakeSlowdownNs, "hw_power_brake"}};
  std::vector<nvmlFieldValue> values(std::size(wanted), nvmlFieldValue{});
  for (std::size_t i = 0; i < values.size(); ++i) values[i].fieldId = wanted[i].first;
  if (!answered(f(d, static_cast<int>(values.size()), values.data()), "nvmlDeviceGetFieldValues",
                h))
    return;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto n = field_number(values[i]);
    if (!n) continue;
    if (values[i].fieldId == kFieldRecoveryAction)
      h.recovery_action = static_cast<int>(*n);
    else
      h.clock_event_ns[wanted[i].second] = *n;
  }
}

std::optional<std::string> process_name(unsigned int pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  if (!comm || !std::getline(comm, name) || name.empty()) return std::nullopt;
  return name;
}

bool list_processes(nvmlDeviceGetProcesses_t fn, nvmlDevice_t d, const char* kind,
                    std::vector<NvmlProcess>& out, NvmlHealth& h) {
  std::vector<nvmlProcessInfo> infos(kNvmlMaxProcesses);
  unsigned int count = kNvmlMaxProcesses;
  if (fn == nullptr || !answered(fn(d, &count, infos.data()), "nvmlDeviceGet*RunningProcesses", h))
    return false;
  for (unsigned int i = 0; i < count && i < kNvmlMaxProcesses; ++i) {
    NvmlProcess p;
    p.pid = infos[i].pid;
    p.kind = kind;
    if (infos[i].usedGpuMemory != kNvmlNotAvailable) p.used_memory_bytes = infos[i].usedGpuMemory;
    p.name = process_name(p.pid);
    out.push_back(p);
  }
  return true;
}

void read_processes(const NvmlCalls& nv, nvmlDevice_t d, NvmlHealth& h) {
  const auto compute = nv.newest<nvmlDeviceGetProcesses_t>(
      "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2");
  const auto graphics = nv.newest<nvmlDeviceGetProcesses_t>(
      "nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2");
  std::vector<NvmlProcess> list;
  const bool a = list_processes(compute, d, "compute", list, h);
  const bool b = list_processes(graphics, d, "graphics", list, h);
  if (a || b) h.processes = list;
}

void read_clocks_and_sensors(const NvmlCalls& nv, nvmlDevice_t d, NvmlHealth& h) {
  unsigned int u = 0;
  if (const auto f = nv.fn<nvmlDeviceGetUint_t>("nvmlDeviceGetPcieReplayCounter");
      f != nullptr && answered(f(d, &u), "nvmlDeviceGetPcieReplayCounter", h))
    h.pcie_replay_count = u;
  unsigned long long reasons = 0;
  if (const auto f = nv.newest<nvmlDeviceGetUll_t>("nvmlDeviceGetCurrentClocksEventReasons",
                                                   "nvmlDeviceGetCurrentClocksThrottleReasons");
      f != nullptr && answered(f(d, &reasons), "nvmlDeviceGetCurrentClocksEventReasons", h))
    h.clock_event_reasons = reasons;
  auto sensor = [&](const char* query, int which, std::optional<int>& out) {
    const auto f = nv.fn<nvmlDeviceGetSensor_t>(query);
    if (f != nullptr && answered(f(d, which, &u), query, h)) out = static_cast<int>(u);
  };
  sensor("nvmlDeviceGetTemperature", kNvmlTemperatureGpu, h.temperature_c);
  sensor("nvmlDeviceGetTemperatureThreshold", kNvmlThresholdSlowdown, h.temperature_slowdown_c);
  sensor("nvmlDeviceGetTemperatureThreshold", kNvmlThresholdShutdown, h.temperature_shutdown_c);
  auto milliwatts = [&](const char* query, std::optional<std::uint64_t>& out) {
    const auto f = nv.fn<nvmlDeviceGetUint_t>(query);
    if (f != nullptr && answered(f(d, &u), query, h)) out = u;
  };
  milliwatts("nvmlDeviceGetPowerUsage", h.power_usage_mw);
  milliwatts("nvmlDeviceGetEnforcedPowerLimit", h.power_limit_mw);
}

void read_partitioning(const NvmlCalls& nv, nvmlDevice_t d, NvmlHealth& h) {
  unsigned int current = 0, pending = 0;
  if (const auto f = nv.fn<nvmlDeviceGetEnablePair_t>("nvmlDeviceGetMigMode");
      f != nullptr && answered(f(d, &current, &pending), "nvmlDeviceGetMigMode", h)) {
    h.mig_mode_current = current != 0;
    h.mig_mode_pending = pending != 0;
  }
  GridLicenseBuffer grid{};
  const auto f =
      nv.fn<nvmlDeviceGetGridLicensableFeatures_t>("nvmlDeviceGetGridLicensableFeatures_v4");
  if (f == nullptr || !answered(f(d, &grid.info), "nvmlDeviceGetGridLicensableFeatures", h) ||
      grid.info.isGridLicenseSupported == 0)
    return;
  h.vgpu_licensed = false;
  const unsigned int n =
      grid.info.licensableFeaturesCount < 3 ? grid.info.licensableFeaturesCount : 3;
  for (unsigned int i = 0; i < n; ++i) {
    auto& feature = grid.info.gridLicensableFeatures[i];
    if (feature.featureEnabled == 0) continue;
    feature.productName[sizeof feature.productName - 1] = '\0';
    if (!h.vgpu_license_product && feature.productName[0] != '\0')
      h.vgpu_license_product = std::string(feature.productName);
    h.vgpu_licensed = *h.vgpu_licensed || feature.featureState != 0;
  }
}

}  // namespace

void probe_nvml_health(const NvmlCalls& nv, nvmlDevice_t h, NvmlHealth& out) {
  read_ecc(nv, h, out);
  read_memory_repair(nv, h, out);
  read_fields(nv, h, out);
  read_processes(nv, h, out);
  read_clocks_and_sensors(nv, h, out);
  read_partitioning(nv, h, out);
}

}  // namespace p2p::doctor
