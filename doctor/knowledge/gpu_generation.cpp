#include "doctor/knowledge/gpu_generation.hpp"

#include "doctor/knowledge/driver_tables.hpp"

namespace p2p::doctor {

namespace {

GpuGeneration make(const char* name, const char* firmware, bool needs_open) {
  return GpuGeneration{name, firmware, needs_open, true};
}

}  // namespace

GpuGeneration generation_from_device_id(int id) {
  // The architecture, its GSP firmware and whether only the open modules support it come from
  // the architecture table (driver_tables.cpp), which names its sources.
  if (const ArchitectureSupport* a = architecture_of_device(id))
    return GpuGeneration{a->generation, a->gsp_firmware, a->needs_open_module, true};
  if (id > 0 && id < 0x1e00) return make("pre-Turing", "", false);  // older than every range listed
  return GpuGeneration{"unknown", "", false, false};
}

GpuGeneration generation_from_nvml_architecture(int arch) {
  switch (arch) {
    case 6: return make("Turing", "gsp_tu10x.bin", false);
    case 7: return make("Ampere", "gsp_ga10x.bin", false);
    case 8: return make("Ada", "gsp_ga10x.bin", false);
    case 9: return make("Hopper", "gsp_ga10x.bin", false);
    case 2:
    case 3:
    case 4:
    case 5: return make("pre-Turing", "", false);
    default:
      if (arch >= 10 && arch < 64) return make("Blackwell", "gsp_ga10x.bin", true);
      return GpuGeneration{"unknown", "", false, false};
  }
}

bool is_gpu_class(int class_code) {
  const int sub = class_code >> 8;
  return sub == 0x0300 || sub == 0x0302;
}

bool is_nvswitch_class(int class_code) { return (class_code >> 8) == 0x0680; }

}  // namespace p2p::doctor
