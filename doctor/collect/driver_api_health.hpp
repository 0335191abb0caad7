// The NVML health queries the doctor calls (ECC, retired pages, remapped rows, field values,
// clocks, temperature, power, MIG, vGPU licence), declared as in nvml.h so that the doctor needs
// no nvml.h. Structs NVML fills sit in padded unions like those of driver_api.hpp.
#pragma once

#include "doctor/collect/driver_api.hpp"

namespace p2p::doctor::api {

constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr nvmlReturn_t kNvmlNotSupported = 3;
constexpr nvmlReturn_t kNvmlInsufficientSize = 7;

// nvmlMemoryErrorType_t and nvmlEccCounterType_t.
constexpr int kNvmlCorrected = 0;
constexpr int kNvmlUncorrected = 1;
constexpr int kNvmlVolatileEcc = 0;
constexpr int kNvmlAggregateEcc = 1;
// nvmlPageRetirementCause_t.
constexpr int kNvmlRetiredMultipleSingleBit = 0;
constexpr int kNvmlRetiredDoubleBit = 1;
// nvmlTemperatureSensors_t and nvmlTemperatureThresholds_t.
constexpr int kNvmlTemperatureGpu = 0;
constexpr int kNvmlThresholdShutdown = 0;
constexpr int kNvmlThresholdSlowdown = 1;

// Field ids of nvmlDeviceGetFieldValues.
constexpr unsigned int kFieldPerfPolicyPower = 74;  // ns held down by the power cap
constexpr unsigned int kFieldRecoveryAction = 230;  // NVML_FI_DEV_GET_GPU_RECOVERY_ACTION
constexpr unsigned int kFieldSwThermalSlowdownNs = 269;
constexpr unsigned int kFieldHwThermalSlowdownNs = 270;
constexpr unsigned int kFieldHwPowerBrakeSlowdownNs = 271;

union nvmlValue {
  double dVal;
  int siVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  long long sllVal;
  unsigned short usVal;
};
struct nvmlFieldValue {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;
  long long latencyUsec;
  int valueType;  // 0 double, 1 uint, 2 ulong, 3 ull, 4 sll, 5 sint, 6 ushort
  nvmlReturn_t nvmlReturn;
  nvmlValue value;
};

// nvmlGridLicensableFeatures_t as _v4 fills it (three features at most).
struct nvmlGridLicenseExpiry {
  unsigned int year;
  unsigned short month, day, hour, min, sec;
  unsigned char status;
};
struct nvmlGridLicensableFeature {
  int featureCode;
  unsigned int featureState;  // non-zero: licensed now
  char licenseInfo[128];
  char productName[128];
  unsigned int featureEnabled;
  nvmlGridLicenseExpiry licenseExpiry;
};
struct nvmlGridLicensableFeatures {
  int isGridLicenseSupported;
  unsigned int licensableFeaturesCount;
  nvmlGridLicensableFeature gridLicensableFeatures[3];
};
union GridLicenseBuffer {
  nvmlGridLicensableFeatures info;
  unsigned char padding[4096];
};

using nvmlDeviceGetEnablePair_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* current,
                                                   unsigned int* pending);  // ECC, MIG modes
using nvmlDeviceGetTotalEccErrors_t = nvmlReturn_t (*)(nvmlDevice_t device, int error_type,
                                                       int counter_type, unsigned long long* count);
using nvmlDeviceGetRetiredPages_t = nvmlReturn_t (*)(nvmlDevice_t device, int cause,
                                                     unsigned int* count,
                                                     unsigned long long* addresses);
using nvmlDeviceGetRemappedRows_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* correctable,
                                                     unsigned int* uncorrectable,
                                                     unsigned int* pending, unsigned int* failed);
using nvmlDeviceGetFieldValues_t = nvmlReturn_t (*)(nvmlDevice_t device, int count,
                                                    nvmlFieldValue* values);
using nvmlDeviceGetUll_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned long long* value);
using nvmlDeviceGetSensor_t = nvmlReturn_t (*)(nvmlDevice_t device, int which, unsigned int* value);
using nvmlDeviceGetGridLicensableFeatures_t =
    nvmlReturn_t (*)(nvmlDevice_t device, nvmlGridLicensableFeatures* features);

}  // namespace p2p::doctor::api
