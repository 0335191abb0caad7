// Causes between a loaded driver and a working CUDA: the wrong or missing libcuda, user space and
// module of different releases, Fabric Manager, nvidia_uvm and its node, device nodes and their
// permissions, the environment hiding the GPUs, compute mode, and a CUDA probe that crashed or
// hung.
#include "doctor/derived.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/verdict/verdict_cause_support.hpp"

namespace p2p::doctor {

namespace {

// What the driver's user space and its services lack: libcuda, matching versions, Fabric
// Manager, nvidia_uvm.
void driver_userspace_causes(const Facts& f, const std::vector<Finding>& all,
                             std::vector<Cause>& out) {
  if (check_failed(all, "cuda.library")) {
    const bool stub = is_stub_path(f.cuda.library_path) || cuinit_result(f).value_or(0) == 34;
    const bool compat = is_compat_path(f.cuda.library_path);
    if (stub)
      from_finding(out, all, "cuda.library", "stub_library",
                   "Stub libcuda picked up instead of the driver's", 18);
    else if (compat)
      from_finding(out, all, "cuda.library", "compat_library",
                   "Forward-compatibility libcuda cannot drive this setup", 16);
    else if (!no_driver(f))
      // In a container the missing library is the symptom: the container's settings (its driver
      // capabilities, the loader cache) are the documented causes (documented_container.cpp).
      from_finding(out, all, "cuda.library", "libcuda_missing",
                   "Driver user space (libcuda.so.1) missing", in_container(f) ? 4 : 15);
  }
  if (check_failed(all, "versions.userspace"))
    from_finding(out, all, "versions.userspace", "version_mismatch",
                 "User-space driver libraries do not match the kernel module", 16);
  if (check_failed(all, "fabric_manager")) {
    const FabricManagerLog fm = fabric_manager_log(f);
    const bool other_release = fm.version && module_version(f) && *fm.version != *module_version(f);
    from_finding(out, all, "fabric_manager", "fabric_manager",
                 other_release ? "Fabric Manager of another release than the driver"
                               : "Fabric Manager not running on an NVSwitch system",
                 cuinit_result(f).value_or(0) == 802 ? 16 : 12);
  }
  if (check_failed(all, "module.uvm"))
    from_finding(out, all, "module.uvm", "uvm_missing", "nvidia_uvm not loaded", 15);
  // A container given no compute capability has neither libcuda nor /dev/nvidia-uvm: both are
  // symptoms of that one setting (documented_container.cpp).
  const bool no_compute_mounts = in_container(f) && f.cuda.status == ProbeStatus::kLibraryMissing;
  if (check_failed(all, "uvm.major"))
    from_finding(out, all, "uvm.major", "uvm_node",
                 "/dev/nvidia-uvm missing or with the wrong major", no_compute_mounts ? 4 : 14);
}

// What keeps CUDA off GPUs the driver runs: device access, the environment, compute mode, a
// driver too old for the runtime, a probe that crashed.
void access_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  // ENXIO/ENODEV opens are the stale-major story above; only EACCES/EPERM are about permissions.
  const NodeAccess access = node_access(f);
  // EACCES alone inside a container, where root holds CAP_DAC_OVERRIDE, is more often a security
  // module than the nodes' mode: that documented cause (documented_security.cpp) ranks first.
  const bool lsm_likely = access.eacces && !access.eperm && in_container(f);
  if (check_failed(all, "devices.open") && (access.eacces || access.eperm))
    from_finding(out, all, "devices.open", "device_access",
                 "Device permissions / cgroup device filter", lsm_likely ? 9 : 14);
  else if (check_failed(all, "cgroup"))
    from_finding(out, all, "cgroup", "device_access", "Device permissions / cgroup device filter",
                 13);
  if (check_failed(all, "devices.nodes"))
    from_finding(out, all, "devices.nodes", "device_nodes", "NVIDIA device nodes missing or wrong",
                 12);
  if (check_failed(all, "env")) {
    std::string title = "CUDA_VISIBLE_DEVICES hides the GPUs";
    for (const auto& v : visible_devices(f)) {
      if (v.hides_all)
        title = v.variable + " hides the GPUs";
      else if (!v.missing.empty() && v.usable == 0)
        title = v.variable + " names GPUs that are not here";
    }
    from_finding(out, all, "env", "visible_devices", title, 14);
  }
  if (check_failed(all, "versions.cuda_api"))
    from_finding(out, all, "versions.cuda_api", "insufficient_driver",
                 "Driver too old for the CUDA runtime p2pcheck uses", 12);
  if (check_failed(all, "compute_mode")) {
    std::vector<std::string> affected;
    for (const auto& d : f.nvml.devices)
      if (d.compute_mode && (*d.compute_mode == 1 || *d.compute_mode == 2))
        affected.push_back(normalize_bdf(d.pci_bus_id));
    from_finding(out, all, "compute_mode", "compute_mode",
                 "Compute mode forbids CUDA contexts (or all but one thread's)", 10, affected);
  }
  const auto& c = f.cuda;
  if (c.status == ProbeStatus::kCrashed || c.status == ProbeStatus::kTimedOut)
    out.push_back(make_cause(std::string("cuda_probe_") + to_string(c.status),
                             "The driver crashed or hung inside CUDA initialisation", 8,
                             {std::string("CUDA probe ") + to_string(c.status) + ": " + c.detail},
                             "check the kernel log; reset the GPU or reboot"));
}

}  // namespace

void runtime_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  driver_userspace_causes(f, all, out);
  access_causes(f, all, out);
}

}  // namespace p2p::doctor
