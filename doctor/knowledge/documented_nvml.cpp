// NVML's return codes (nvmlReturn_t) from nvmlInit and the per-GPU queries, and the device states
// NVML reports that decide whether CUDA may use a GPU (compute mode, vGPU licence, MIG,
// virtualization). The meanings are ours, from NVIDIA's NVML reference.
#include "doctor/knowledge/documented_table.hpp"

namespace p2p::doctor {

namespace {

using Op = FactOp;

DocumentedCause device_access_cause() {
  return {"device_access",
          "the GPU device nodes cannot be opened (cgroup device rules or permissions)",
          {{"devices.open_error", Op::kIs, "EPERM"}, {"devices.open_error", Op::kIs, "EACCES"}},
          {},
          "allow the NVIDIA device majors in the container's device cgroup (after systemctl "
          "daemon-reload, restart the container) and make the nodes readable and writable"};
}

}  // namespace

DocumentedTable nvml_table() {
  return {
      "nvml",
      "NVML",
      "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html (nvmlReturn_t)",
      true,
      {
          {{"nvml.init", Op::kIs, "NVML_ERROR_DRIVER_NOT_LOADED"},
           Status::kFail,
           "NVML found no running NVIDIA kernel driver",
           {{"no_driver",
             "the nvidia kernel module is not loaded",
             {{"module.loaded", Op::kIs, "no"}},
             {{"module.loaded", Op::kIs, "yes"}},
             "install the NVIDIA driver for this kernel and load it (modprobe nvidia)"},
            {"container_no_gpus",
             "the container runtime gave this container no GPU",
             {{"devices.gpu_nodes", Op::kIs, "0"}},
             {{"devices.gpu_nodes", Op::kIsNot, "0"},
              {"environment.kind", Op::kIsNot, "container"}},
             "start the container with its GPUs (docker run --gpus all, CDI or a Kubernetes "
             "nvidia.com/gpu request)"}}},
          {{"nvml.init", Op::kIs, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
           Status::kFail,
           "NVML and the kernel module are different releases",
           {{"version_mismatch",
             "user space and kernel module of different releases",
             {},
             {},
             "reboot after a driver upgrade, or install user-space libraries of exactly the "
             "module's version (in a container: the host's)"}}},
          {{"nvml.init", Op::kIs, "NVML_ERROR_NO_PERMISSION"},
           Status::kFail,
           "the process may not use the GPUs",
           {security_module_cause(), device_access_cause()}},
          {{"nvml.init", Op::kIs, "NVML_ERROR_UNKNOWN"},
           Status::kFail,
           "NVML failed for a reason it does not classify; in containers, most often device access",
           {device_access_cause(), security_module_cause()}},
          {{"nvml.init", Op::kIs, "NVML_ERROR_IRQ_ISSUE"},
           Status::kFail,
           "the kernel driver saw an interrupt problem with a GPU",
           {{"gpu_irq",
             "a GPU's interrupts do not reach the driver",
             {},
             {},
             "read the kernel log for MSI/IRQ errors of the GPU; reset or reseat it, and check "
             "the VM's or BIOS's interrupt settings"}}},
          {{"nvml.query_errors", Op::kIs, "NVML_ERROR_GPU_IS_LOST"},
           Status::kFail,
           "the GPU stopped answering: it has fallen off the bus",
           {{"gpu_lost",
             "GPU lost (fell off the bus)",
             {},
             {},
             "power-cycle the node; reseat the GPU and check its power if it recurs"}}},
          {{"nvml.query_errors", Op::kIs, "NVML_ERROR_RESET_REQUIRED"},
           Status::kFail,
           "the GPU needs a reset before it can be used again",
           {{"gpu_reset_required",
             "the GPU needs a reset",
             {},
             {},
             "reset the GPU (nvidia-smi -r -i <gpu> with no process on it) or reboot"}}},
          {{"nvml.query_errors", Op::kIs, "NVML_ERROR_CORRUPTED_INFOROM"},
           Status::kFail,
           "the GPU's InfoROM (its configuration and error record store) is corrupt",
           {{"inforom",
             "corrupt InfoROM",
             {},
             {},
             "update the InfoROM with the board vendor's or NVIDIA's firmware tool; replace the "
             "GPU if it stays corrupt"}}},
      }};
}

DocumentedTable gpu_state_table() {
  return {
      "gpu_state",
      "NVML device state",
      "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceQueries.html; "
      "https://docs.nvidia.com/deploy/nvidia-smi/index.html (compute mode, MIG, vGPU licence)",
      true,
      {
          {{"gpu.compute_mode", Op::kIs, "Prohibited"},
           Status::kFail,
           "no process may create a CUDA context on the GPU",
           {{"compute_mode",
             "the GPU's compute mode is Prohibited",
             {},
             {},
             "as root: nvidia-smi -i <gpu> -c DEFAULT"}}},
          {{"gpu.compute_mode", Op::kIs, "Exclusive_Process"},
           Status::kWarn,
           "one process at a time may hold a context: a second rank or a test beside a job fails",
           {{"compute_mode",
             "the GPU's compute mode is Exclusive_Process",
             {},
             {},
             "as root: nvidia-smi -i <gpu> -c DEFAULT while testing (the scheduler may set it "
             "back)"}}},
          {{"gpu.vgpu_licensed", Op::kIs, "no"},
           Status::kFail,
           "the vGPU has no licence: CUDA is restricted until it gets one",
           {{"vgpu_unlicensed",
             "vGPU without a licence",
             {},
             {},
             "license the vGPU: configure nvidia-gridd (client configuration token) and restart it"}}},
          {{"gpu.mig", Op::kIs, "on"},
           Status::kWarn,
           "the GPU is split into MIG instances: CUDA sees instances, never peers",
           {{"mig_enabled",
             "MIG mode on",
             {},
             {},
             "turn MIG off for P2P testing (nvidia-smi -i <gpu> -mig 0, then reset the GPU)"}}},
          {{"gpu.virtualization", Op::kIs, "vGPU"},
           Status::kWarn,
           "a vGPU: P2P only over NVLink between full-framebuffer time-sliced vGPUs, never PCIe",
           {{"vgpu_p2p",
             "vGPU guest: no P2P over PCIe",
             {},
             {},
             "for P2P use GPU pass-through (or full-framebuffer vGPUs on NVLink)"}}},
      }};
}

}  // namespace p2p::doctor
