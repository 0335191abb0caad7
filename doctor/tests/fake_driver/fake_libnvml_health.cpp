// The health queries of the stand-in libnvidia-ml.so.1 (see fake_libnvml.cpp). By default both
// GPUs are healthy Hopper-class boards. P2P_FAKE_NVML_HEALTH=failing gives GPU 1 uncorrectable
// memory errors with a row remap pending, the reset NVML asks for and a hardware slowdown;
// =unsupported answers NVML_ERROR_NOT_SUPPORTED to every health query, as an old driver or a
// GeForce card does.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "doctor/collect/driver_api_health.hpp"

using namespace p2p::doctor::api;

namespace {

unsigned health_index_of(nvmlDevice_t d) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) - 0x100);
}

bool mode(const char* value) {
  const char* v = std::getenv("P2P_FAKE_NVML_HEALTH");
  return v != nullptr && std::strcmp(v, value) == 0;
}

bool failing(nvmlDevice_t d) { return mode("failing") && health_index_of(d) == 1; }
bool unsupported() { return mode("unsupported"); }

}  // namespace

extern "C" {

int nvmlDeviceGetEccMode(nvmlDevice_t, unsigned* current, unsigned* pending) {
  if (unsupported()) return kNvmlNotSupported;
  *current = *pending = 1;
  return 0;
}

int nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter, unsigned long long* n) {
  if (unsupported()) return kNvmlNotSupported;
  const bool bad = failing(d);
  if (type == kNvmlCorrected)
    *n = bad ? (counter == kNvmlVolatileEcc ? 120 : 4821) : 0;
  else
    *n = bad ? (counter == kNvmlVolatileEcc ? 3 : 5) : 0;
  return 0;
}

// Hopper retires no pages: row remapping replaced page retirement.
int nvmlDeviceGetRetiredPages(nvmlDevice_t, int, unsigned*, unsigned long long*) {
  return kNvmlNotSupported;
}
int nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t, unsigned*) { return kNvmlNotSupported; }

int nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned* corr, unsigned* unc, unsigned* pending,
                              unsigned* failed) {
  if (unsupported()) return kNvmlNotSupported;
  *corr = 0;
  *unc = failing(d) ? 2 : 0;
  *pending = failing(d) ? 1 : 0;
  *failed = 0;
  return 0;
}

int nvmlDeviceGetFieldValues(nvmlDevice_t d, int count, nvmlFieldValue* values) {
  if (unsupported()) return kNvmlNotSupported;
  for (int i = 0; i < count; ++i) {
    nvmlFieldValue& v = values[i];
    v.nvmlReturn = 0;
    if (v.fieldId == kFieldRecoveryAction) {
      v.valueType = 1;
      v.value.uiVal = failing(d) ? 1 : 0;
    } else {
      v.valueType = 3;
      v.value.ullVal = failing(d) && v.fieldId == kFieldHwPowerBrakeSlowdownNs ? 5000000000ull : 0;
    }
  }
  return 0;
}

int nvmlDeviceGetPcieReplayCounter(nvmlDevice_t d, unsigned* n) {
  if (unsupported()) return kNvmlNotSupported;
  *n = failing(d) ? 17 : 0;
  return 0;
}

int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long* reasons) {
  if (unsupported()) return kNvmlNotSupported;
  *reasons = failing(d) ? 0x88 : 0x1;  // HW slowdown + power brake, else idle
  return 0;
}

int nvmlDeviceGetTemperature(nvmlDevice_t, int, unsigned* c) { return *c = 35, 0; }
int nvmlDeviceGetTemperatureThreshold(nvmlDevice_t, int which, unsigned* c) {
  if (unsupported()) return kNvmlNotSupported;
  *c = which == kNvmlThresholdShutdown ? 95 : 90;
  return 0;
}
int nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned* mw) { return *mw = 70000, 0; }
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t, unsigned* mw) { return *mw = 700000, 0; }

int nvmlDeviceGetMigMode(nvmlDevice_t, unsigned* current, unsigned* pending) {
  if (unsupported()) return kNvmlNotSupported;
  *current = *pending = 0;
  return 0;
}

// Bare metal: the vGPU licence does not apply.
int nvmlDeviceGetGridLicensableFeatures_v4(nvmlDevice_t, nvmlGridLicensableFeatures* f) {
  std::memset(f, 0, sizeof *f);
  return 0;
}

}  // extern "C"
