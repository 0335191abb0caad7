// Calls into the NVML loaded at run time, shared by the NVML probe's files. Every entry point is
// optional: older libraries lack some, and a missing one is a null, not a failure. Internal to
// p2p_doctor_collect.
#pragma once

#include <optional>

#include "common/dynamic_library.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/health_facts.hpp"

namespace p2p::doctor {

struct NvmlCalls {
  explicit NvmlCalls(const DynamicLibrary& library) : lib(library) {}
  const DynamicLibrary& lib;

  template <class Fn>
  Fn fn(const char* name) const {
    return lib.function<Fn>(name);
  }
  // The first of `newer`, `older` this library exports (nullptr when neither).
  template <class Fn>
  Fn newest(const char* newer, const char* older) const {
    const Fn f = fn<Fn>(newer);
    return f != nullptr ? f : fn<Fn>(older);
  }
  std::optional<int> get_uint(const char* name, api::nvmlDevice_t d) const {
    const auto f = fn<api::nvmlDeviceGetUint_t>(name);
    unsigned int v = 0;
    if (f == nullptr || f(d, &v) != 0) return std::nullopt;
    return static_cast<int>(v);
  }
};

// Fills `out` with what NVML says about the health of the GPU behind `h` (probe_nvml_health.cpp).
void probe_nvml_health(const NvmlCalls& nv, api::nvmlDevice_t h, NvmlHealth& out);

}  // namespace p2p::doctor
