#include "doctor/gpu_generation.hpp"

namespace p2p::doctor {

namespace {

GpuGeneration make(const char* name, const char* firmware, bool needs_open) {
  return GpuGeneration{name, firmware, needs_open, true};
}

}  // namespace

GpuGeneration generation_from_device_id(int id) {
  // The firmware mapping is nv-firmware.h's: Turing and GA100 load gsp_tu10x.bin; GA10x, Ada,
  // Hopper and every Blackwell family (GB10x, GB20x) load gsp_ga10x.bin.
  if (id >= 0x2900)
    return make("Blackwell", "gsp_ga10x.bin",
                true);  // GB100 0x29xx, GB20x 0x2Bxx-0x2Fxx, GB110 0x31xx
  if (id >= 0x2600) return make("Ada", "gsp_ga10x.bin", false);  // AD102 0x26xx .. AD107 0x28xx
  if (id >= 0x2300 && id < 0x2400)
    return make("Hopper", "gsp_ga10x.bin", false);  // H100 0x2330, H200 0x2335
  if (id >= 0x2200)
    return make("Ampere", "gsp_ga10x.bin",
                false);  // GA102 0x22xx, GA103/104 0x24xx, GA106/107 0x25xx
  if (id >= 0x20b0 && id < 0x2100)
    return make("Ampere (GA100)", "gsp_tu10x.bin", false);  // A100 0x20b0, A30 0x20b7
  if (id >= 0x2180 && id < 0x2200) return make("Turing", "gsp_tu10x.bin", false);  // TU116/TU117
  if (id >= 0x1e00 && id < 0x2000)
    return make("Turing", "gsp_tu10x.bin", false);  // TU102/TU104/TU106/TU117
  if (id > 0 && id < 0x1e00) return make("pre-Turing", "", false);
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
