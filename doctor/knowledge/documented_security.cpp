// Security modules' denials: AppArmor and SELinux log every refused open to the kernel's audit
// log. The user sees "permission denied" or an NVML/CUDA failure; the denial names the cause.
#include "doctor/knowledge/documented_table.hpp"

namespace p2p::doctor {

DocumentedCause security_module_cause() {
  return {"security_module",
          "a security module (AppArmor/SELinux) denies the driver's device nodes or libraries",
          {{"kernel.log", FactOp::kHas, "apparmor=\"DENIED\""},
           {"kernel.log", FactOp::kHas, "avc:  denied"}},
          {},
          "allow the NVIDIA device nodes and libraries in the profile that confines this process "
          "(AppArmor: the container's or snap's profile; SELinux: the container_use_devices "
          "boolean, or a policy module for the denied path from the audit log), then run again"};
}

namespace {

// Root in a container holds CAP_DAC_OVERRIDE, so the nodes' mode does not refuse it: EACCES there
// comes from a security module, whose denial the container cannot read from the kernel log.
DocumentedCause security_module_in_container() {
  DocumentedCause c = security_module_cause();
  c.confirm.push_back({"environment.kind", FactOp::kIs, "container"});
  return c;
}

}  // namespace

DocumentedTable security_module_table() {
  using Op = FactOp;
  return {
      "security_module",
      "security modules",
      "https://gitlab.com/apparmor/apparmor/-/wikis/AppArmor_Failures (AppArmor denials); "
      "https://docs.redhat.com/en/documentation/red_hat_enterprise_linux/9/html/"
      "using_selinux/troubleshooting-problems-related-to-selinux_using-selinux (SELinux AVC "
      "denials)",
      true,
      {
          {{"kernel.log", Op::kHas, "apparmor=\"DENIED\""},
           Status::kWarn,
           "AppArmor refused an operation on the driver's files",
           {security_module_cause()}},
          {{"kernel.log", Op::kHas, "avc:  denied"},
           Status::kWarn,
           "SELinux refused an operation on the driver's files",
           {security_module_cause()}},
          {{"devices.open_error", Op::kIs, "EACCES"},
           Status::kFail,
           "a GPU device node refused this process: its mode, owner or a security module",
           {security_module_in_container(),
            {"device_access",
             "the device nodes' mode or owner refuses this user",
             {},
             {},
             "make /dev/nvidia* mode 0666 (NVreg_DeviceFileMode) or add the user to their group"}}},
      }};
}

}  // namespace p2p::doctor
