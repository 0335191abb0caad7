// The facts as named values, the vocabulary the documented tables (documented_tables.hpp) test.
// A table row says "cuInit returned CUDA_ERROR_NO_DEVICE" or "a GPU's compute mode is Prohibited"
// as data; this is the one place that knows where in the facts each such value lives. Pure.
//
// A name absent from the view was not known (not probed, not readable); a name with no values was
// known to have none (no variable set, no denial in the kernel log).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "doctor/facts.hpp"

namespace p2p::doctor {

struct FactValue {
  std::string value;
  std::string gpu;  // the bus id the value belongs to ("0000:41:00.0"); "" for the host
};

using FactView = std::map<std::string, std::vector<FactValue>>;

// Names and what they hold (codes by their documented names, "CUDA_ERROR_NO_DEVICE"):
//   cuda.probe, nvml.probe       probe status (completed, library_missing, ...)
//   cuda.init, nvml.init         the init call's return, unless it succeeded
//   cuda.context, cuda.alloc     per GPU, returns other than success
//   cuda.peer                    CUresult names in the peer-copy check's failures, per pair's
//   source cuda.library                 the libcuda loaded nvml.query_errors            per GPU,
//   NVML returns of failed health queries gpu.compute_mode, gpu.virtualization, gpu.mig,
//   gpu.vgpu_licensed, gpu.processes, gpu.name                     per GPU module.loaded,
//   uvm.loaded    yes | no;   module.flavour   open | proprietary environment.kind bare-metal | vm
//   | container | wsl;   environment.container  docker, lxc devices.gpu_nodes            the count
//   of /dev/nvidiaN nodes;  devices.open_error  EPERM, EACCES nvswitch.count NVSwitches on the PCI
//   bus daemons                      NVIDIA daemons running kernel.log, fabric_manager.log   the
//   lines kept env.NAME                     each variable the collector keeps (NCCL_*, CUDA_*,
//   NVIDIA_*)
FactView fact_view(const Facts& f);

}  // namespace p2p::doctor
