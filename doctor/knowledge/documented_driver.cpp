// Messages the NVIDIA driver's README documents it printing when it declines a GPU, whose cause
// no other check reads: the driver's own statement is the diagnosis.
#include "doctor/knowledge/documented_table.hpp"

namespace p2p::doctor {

DocumentedTable driver_message_table() {
  using Op = FactOp;
  DocumentedRow opt_in{
      {"kernel.log", Op::kHas, "Open nvidia.ko is only ready for use on Data Center GPUs"},
      Status::kFail,
      "the open kernel module of this release drives GeForce and workstation GPUs only when asked "
      "to (it treats them as not yet supported)",
      {{"open_module_opt_in",
        "The open kernel module of this release needs an opt-in for GeForce/workstation GPUs",
        {},
        {},
        "set options nvidia NVreg_OpenRmEnableUnsupportedGpus=1 in /etc/modprobe.d and reload "
        "the module, or install the proprietary module of this release, or a driver of the 560 "
        "branch or newer, whose open module supports these GPUs without it"}}};
  opt_in.driver_states_cause = true;
  return {"driver_message",
          "NVIDIA driver messages",
          "https://download.nvidia.com/XFree86/Linux-x86_64/515.43.04/README/kernel_open.html "
          "(Open Linux Kernel Modules: GeForce and workstation support, "
          "NVreg_OpenRmEnableUnsupportedGpus)",
          true,
          {opt_in}};
}

}  // namespace p2p::doctor
