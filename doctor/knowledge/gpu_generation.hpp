// Which GPU generation a PCI device id belongs to, and what that means for the driver:
// which GSP firmware file the module asks the kernel for, and whether only the open kernel
// modules support it (Blackwell and newer, since R560).
#pragma once

#include <string>

namespace p2p::doctor {

struct GpuGeneration {
  std::string name;          // "Blackwell", "Hopper", "Ada", "Ampere", "Ampere (GA100)", "Turing",
                             // "pre-Turing", "unknown"
  std::string gsp_firmware;  // "gsp_ga10x.bin", "gsp_tu10x.bin", or "" (no GSP)
  bool needs_open_module = false;  // the proprietary module does not support it at all
  bool known = false;
};

// From the PCI device id (vendor 0x10de). Ranges follow the driver's supported-chips list.
GpuGeneration generation_from_device_id(int device_id);

// From nvmlDeviceArchitecture_t (2 Kepler ... 9 Hopper, 10 Blackwell), for GPUs whose id we
// do not know. GA100 and GA10x share an architecture, so this picks GA10x's firmware.
GpuGeneration generation_from_nvml_architecture(int arch);

// PCI class codes: 0x0300xx VGA, 0x0302xx 3D controller (data-centre GPUs), 0x0680xx bridge
// (NVSwitch).
bool is_gpu_class(int class_code);
bool is_nvswitch_class(int class_code);

}  // namespace p2p::doctor
