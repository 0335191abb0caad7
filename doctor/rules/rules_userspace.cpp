// User space against the kernel: libcuda/NVML versions, the CUDA API level, cuInit and NVML
// results, and nvidia_uvm with its HMM setting.
#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/knowledge/driver_tables.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

bool probe_ran(ProbeStatus status) { return status != ProbeStatus::kNotRun; }

// The drivers a CUDA release needs, from NVIDIA's table (driver_tables.cpp).
std::string driver_upgrade_hint(int cuda) {
  const auto own = min_driver_for_cuda(cuda);
  const auto compat = min_driver_for_cuda_major(cuda);
  std::string hint = "upgrade the driver";
  if (own)
    hint += " to " + *own + " or newer (the driver CUDA " + cuda_version_string(cuda) +
            " was released with)";
  if (compat && (!own || *compat != *own))
    hint += "; any driver from " + *compat + " runs CUDA " + std::to_string(cuda / 1000) +
            ".x applications through minor version compatibility";
  return hint + "; or build p2pcheck with a CUDA toolkit no newer than the driver (" +
         kCudaDriverTableSource + ")";
}

Finding check_uvm_loaded(const Facts& f) {
  if (nvidia_loaded(f) == Tri::kNo)
    return finding("module.uvm", Status::kSkip, "no nvidia module loaded");
  std::vector<std::string> ev;
  if (f.kernel.char_majors.present()) {
    const auto it = f.kernel.char_majors.value.find("nvidia-uvm");
    ev.push_back("/proc/devices: " + (it == f.kernel.char_majors.value.end()
                                          ? std::string("no nvidia-uvm")
                                          : "nvidia-uvm " + std::to_string(it->second)));
  }
  switch (uvm_loaded(f)) {
    case Tri::kYes: return finding("module.uvm", Status::kPass, "nvidia_uvm loaded", ev);
    case Tri::kNo:
      return finding(
          "module.uvm", Status::kFail,
          "nvidia_uvm not loaded: NVML works without it, CUDA does not (cuInit 999 or 3)", ev,
          "modprobe nvidia-uvm on the host (or nvidia-modprobe -u -c0) and make it load at boot");
    case Tri::kUnknown: break;
  }
  return finding("module.uvm", Status::kUnknown, "cannot tell whether nvidia_uvm is loaded", ev);
}

Finding check_userspace_versions(const Facts& f) {
  const auto kernel = module_version(f);
  const auto cuda_lib = library_version(f.cuda.library_path);
  const auto nvml_lib = library_version(f.nvml.library_path);
  const auto nvml_driver = f.nvml.driver_version;
  std::vector<std::string> ev;
  if (kernel) ev.push_back("kernel module: " + *kernel);
  if (f.cuda.library_path) ev.push_back("libcuda: " + *f.cuda.library_path);
  if (f.nvml.library_path) ev.push_back("libnvidia-ml: " + *f.nvml.library_path);
  if (nvml_driver) ev.push_back("nvmlSystemGetDriverVersion: " + *nvml_driver);
  const LogSignals log = log_signals(f);
  for (const auto& l : log.api_mismatch) ev.push_back("kernel log: " + l);

  const bool nvml_mismatch = f.nvml.init_result && *f.nvml.init_result == 18;
  std::vector<std::string> wrong;
  const bool compat = is_compat_path(f.cuda.library_path);
  if (kernel && cuda_lib && *cuda_lib != *kernel && !compat)
    wrong.push_back("libcuda " + *cuda_lib);
  if (kernel && nvml_lib && *nvml_lib != *kernel) wrong.push_back("libnvidia-ml " + *nvml_lib);
  if (kernel && nvml_driver && *nvml_driver != *kernel)
    wrong.push_back("NVML driver " + *nvml_driver);
  const std::string hint =
      in_container(f)
          ? "install the container's driver user space at exactly the host's version "
            "(the .run with --no-kernel-modules, or matching packages), again after every host upgrade"
          : "reboot after a driver upgrade, or reinstall so that libraries and module match";
  if (!wrong.empty() || nvml_mismatch || !log.api_mismatch.empty()) {
    std::string summary = "user space does not match the kernel module " + kernel.value_or("?");
    if (!wrong.empty()) summary += ": " + join(wrong);
    if (nvml_mismatch) summary += " (nvmlInit: Driver/library version mismatch)";
    return finding("versions.userspace", Status::kFail, summary, ev, hint);
  }
  if (compat && kernel && cuda_lib && *cuda_lib != *kernel)
    return finding("versions.userspace", Status::kWarn,
                   "forward-compatibility libcuda " + *cuda_lib + " over module " + *kernel, ev,
                   "supported only on data-centre and selected RTX server GPUs; see cuda.library");
  if (!kernel || (!cuda_lib && !nvml_driver && !nvml_lib)) {
    if (!probe_ran(f.cuda.status) && !probe_ran(f.nvml.status))
      return finding("versions.userspace", Status::kSkip,
                     "driver libraries not probed (not a live run)", ev);
    if (nvidia_loaded(f) == Tri::kNo && !f.cuda.library_path && !f.nvml.library_path)
      return finding("versions.userspace", Status::kSkip,
                     "no driver user space and no kernel module", ev);
    return finding("versions.userspace", Status::kUnknown, "versions to compare are not known", ev);
  }
  std::vector<std::string> same;
  if (cuda_lib) same.push_back("libcuda " + *cuda_lib);
  if (nvml_driver)
    same.push_back("NVML " + *nvml_driver);
  else if (nvml_lib)
    same.push_back("libnvidia-ml " + *nvml_lib);
  return finding("versions.userspace", Status::kPass, join(same) + " = kernel module " + *kernel,
                 ev);
}

Finding check_cuda_api(const Facts& f) {
  std::optional<int> driver = f.cuda.driver_version;
  if (!driver) driver = f.nvml.cuda_driver_version;
  const auto built = f.built_cuda_runtime_version;
  std::vector<std::string> ev;
  if (driver) ev.push_back("driver supports CUDA " + cuda_version_string(*driver));
  if (built) ev.push_back("p2pcheck built with CUDA runtime " + cuda_version_string(*built));
  if (!built)
    return finding("versions.cuda_api", Status::kSkip, "built without the CUDA runtime", ev);
  if (!driver && no_driver(f)) return finding("versions.cuda_api", Status::kSkip, "no driver", ev);
  if (!driver && !probe_ran(f.cuda.status) && !probe_ran(f.nvml.status))
    return finding("versions.cuda_api", Status::kSkip,
                   "driver libraries not probed (not a live run)", ev);
  if (!driver)
    return finding("versions.cuda_api", Status::kUnknown, "driver CUDA level unknown", ev);
  if (*driver < *built)
    return finding("versions.cuda_api", Status::kFail,
                   "driver supports CUDA " + cuda_version_string(*driver) + " but p2pcheck needs " +
                       cuda_version_string(*built) +
                       ": the runtime returns cudaErrorInsufficientDriver (35)",
                   ev, driver_upgrade_hint(*built));
  return finding(
      "versions.cuda_api", Status::kPass,
      "driver CUDA " + cuda_version_string(*driver) + " >= runtime " + cuda_version_string(*built),
      ev);
}

Finding check_cuda_library(const Facts& f) {
  const auto& c = f.cuda;
  if (c.status == ProbeStatus::kNotRun)
    return finding("cuda.library", Status::kSkip, "libcuda not probed (" + c.detail + ")");
  std::vector<std::string> ev;
  if (c.library_path) ev.push_back("libcuda.so.1 -> " + *c.library_path);
  const auto init = cuinit_result(f);
  if (c.status == ProbeStatus::kLibraryMissing) {
    ev.push_back("dlopen: " + c.detail);
    return finding(
        "cuda.library", Status::kFail,
        "libcuda.so.1 not found: no driver user space on the library path", ev,
        container_without_gpus(f)
            ? container_gpus_fix()
            : "install the driver's user-space libraries (in a container: the same version as the host module)");
  }
  if (is_stub_path(c.library_path) || (init && *init == 34))
    return finding(
        "cuda.library", Status::kFail,
        "the CUDA toolkit's stub libcuda was loaded (CUDA_ERROR_STUB_LIBRARY)", ev,
        "remove .../lib64/stubs from LD_LIBRARY_PATH and ld.so.conf; the real libcuda.so.1 comes with the driver");
  if (is_compat_path(c.library_path)) {
    const bool broken = init && (*init == 803 || *init == 804);
    return finding(
        "cuda.library", broken ? Status::kFail : Status::kWarn,
        std::string("forward-compatibility libcuda in use") +
            (broken ? ": " + cu_result_name(*init) : ""),
        ev,
        broken
            ? cu_init_explanation(*init) +
                  "; drop cuda-compat from LD_LIBRARY_PATH or upgrade the driver"
            : "fine on data-centre GPUs; remove it from LD_LIBRARY_PATH if the driver is new enough");
  }
  return finding("cuda.library", Status::kPass,
                 "libcuda " + c.library_path.value_or("(path unknown)"), ev);
}

Finding check_nvml(const Facts& f) {
  const auto& n = f.nvml;
  std::vector<std::string> ev;
  if (n.library_path) ev.push_back("libnvidia-ml.so.1 -> " + *n.library_path);
  if (n.status == ProbeStatus::kNotRun)
    return finding("nvml.init", Status::kSkip, "NVML not probed (" + n.detail + ")");
  if (n.status == ProbeStatus::kLibraryMissing)
    return finding("nvml.init", Status::kFail, "libnvidia-ml.so.1 not found",
                   {"dlopen: " + n.detail}, "install the driver's user-space libraries");
  if (n.status != ProbeStatus::kCompleted)
    return finding("nvml.init", Status::kFail,
                   "NVML probe " + std::string(to_string(n.status)) +
                       (n.detail.empty() ? "" : ": " + n.detail),
                   ev);
  if (!n.init_result)
    return finding("nvml.init", Status::kUnknown, "nvmlInit result not recorded", ev);
  if (*n.init_result != 0) {
    std::string hint;
    if (*n.init_result == 18)
      hint = "library and kernel module versions differ: see versions.userspace";
    if (*n.init_result == 9) hint = "the nvidia module is not loaded";
    if (*n.init_result == 4 || *n.init_result == 17)
      hint = "/dev/nvidiactl or /dev/nvidiaN is not accessible: see devices.open";
    return finding(
        "nvml.init", Status::kFail,
        "nvmlInit = " + std::to_string(*n.init_result) + " " + nvml_return_name(*n.init_result), ev,
        hint);
  }
  return finding("nvml.init", Status::kPass,
                 "NVML " + n.driver_version.value_or("?") + ": " +
                     std::to_string(n.device_count.value_or(0)) + " GPU(s)",
                 ev);
}

Finding check_cuinit(const Facts& f) {
  const auto& c = f.cuda;
  if (c.status == ProbeStatus::kNotRun)
    return finding("cuda.init", Status::kSkip, "CUDA not probed (" + c.detail + ")");
  if (c.status == ProbeStatus::kLibraryMissing)
    return finding("cuda.init", Status::kSkip, "no libcuda to initialise");
  if (c.status == ProbeStatus::kCrashed || c.status == ProbeStatus::kTimedOut ||
      c.status == ProbeStatus::kFailed)
    return finding(
        "cuda.init", Status::kFail,
        "CUDA probe " + std::string(to_string(c.status)) + ": " + c.detail, {},
        "the driver crashed or hung inside cuInit; check the kernel log and retry after a GPU reset");
  const auto init = c.init_result;
  if (!init) return finding("cuda.init", Status::kUnknown, "cuInit result not recorded");
  std::vector<std::string> ev{"cuInit(0) = " + std::to_string(*init) + " " + cu_result_name(*init)};
  if (const auto it = f.env.find("CUDA_VISIBLE_DEVICES"); it != f.env.end())
    ev.push_back("CUDA_VISIBLE_DEVICES=" + it->second);
  if (*init != 0)
    return finding("cuda.init", Status::kFail,
                   "cuInit = " + std::to_string(*init) + " " + cu_result_name(*init), ev,
                   cu_init_explanation(*init));
  std::vector<std::string> bad;
  for (const auto& d : c.devices) {
    ev.push_back(
        "CUDA " + std::to_string(d.ordinal) + ": " + d.name + " " + d.pci_bus_id +
        (d.cc_major ? " sm_" + std::to_string(*d.cc_major) + std::to_string(d.cc_minor.value_or(0))
                    : ""));
    if (d.context_result && *d.context_result != 0)
      bad.push_back("GPU " + std::to_string(d.ordinal) + " context " +
                    cu_result_name(*d.context_result));
    else if (d.alloc_result && *d.alloc_result != 0)
      bad.push_back("GPU " + std::to_string(d.ordinal) + " cuMemAlloc " +
                    cu_result_name(*d.alloc_result));
  }
  if (c.device_count.value_or(0) == 0)
    return finding("cuda.init", Status::kFail, "cuInit succeeded but CUDA sees no device", ev,
                   cu_init_explanation(100));
  if (!bad.empty())
    return finding("cuda.init", Status::kFail, "cuInit OK, but " + join_some(bad), ev,
                   cu_init_explanation(46));
  return finding("cuda.init", Status::kPass,
                 "cuInit OK: " + std::to_string(*c.device_count) +
                     " device(s), contexts and a 1 MiB allocation work",
                 ev);
}

Finding check_nvml_vs_cuinit(const Facts& f) {
  const auto init = cuinit_result(f);
  if (!init || f.nvml.status != ProbeStatus::kCompleted || !f.nvml.init_result)
    return finding("cuda.nvml_vs_cuinit", Status::kSkip, "needs both the CUDA and the NVML probe");
  const int nvml_count = f.nvml.device_count.value_or(0);
  std::vector<std::string> ev{"NVML: " + nvml_return_name(*f.nvml.init_result) + ", " +
                                  std::to_string(nvml_count) + " GPU(s)",
                              "cuInit: " + cu_result_name(*init) + ", " +
                                  std::to_string(f.cuda.device_count.value_or(0)) + " device(s)"};
  if (nvml_works(f) && *init != 0)
    return finding(
        "cuda.nvml_vs_cuinit", Status::kFail,
        "NVML sees " + std::to_string(nvml_count) +
            " GPU(s) but cuInit fails: CUDA needs more than nvidia-smi",
        ev,
        "NVML needs only /dev/nvidiactl and /dev/nvidiaN; cuInit also needs a matching libcuda, a working "
        "nvidia_uvm (node, HMM setup) and GSP booted on every GPU: see the verdict");
  if (*init == 0 && nvml_works(f)) {
    const bool masked = f.env.count("CUDA_VISIBLE_DEVICES") != 0;
    if (f.cuda.device_count.value_or(0) < nvml_count && !masked)
      return finding("cuda.nvml_vs_cuinit", Status::kWarn,
                     "CUDA sees " + std::to_string(f.cuda.device_count.value_or(0)) + " of the " +
                         std::to_string(nvml_count) + " GPUs NVML lists",
                     ev, "a GPU failed CUDA initialisation; check the kernel log");
    return finding("cuda.nvml_vs_cuinit", Status::kPass, "NVML and CUDA agree", ev);
  }
  return finding("cuda.nvml_vs_cuinit", Status::kSkip, "NVML does not work either: see nvml.init",
                 ev);
}

Finding check_hmm(const Facts& f) {
  const auto& h = f.kernel.uvm_disable_hmm;
  const LogSignals log = log_signals(f);
  std::vector<std::string> ev;
  if (h.present()) ev.push_back("/sys/module/nvidia_uvm/parameters/uvm_disable_hmm: " + h.value);
  for (const auto& l : log.hmm) ev.push_back("kernel log: " + l);
  const std::string hint =
      "on the host: boot with nokaslr, or set `options nvidia_uvm uvm_disable_hmm=1` in /etc/modprobe.d and reload nvidia_uvm";
  if (!log.hmm.empty() && cuda_works(f))
    return finding("uvm.hmm", Status::kWarn,
                   "kernel log shows an earlier UVM HMM/KASLR failure, but CUDA initialises now",
                   ev, hint);
  if (!log.hmm.empty())
    return finding("uvm.hmm", Status::kFail,
                   "kernel log shows the UVM HMM/KASLR failure (request_free_mem_region err -34)",
                   ev, hint);
  if (uvm_loaded(f) == Tri::kNo)
    return finding("uvm.hmm", Status::kSkip, "nvidia_uvm not loaded", ev);
  const auto init = cuinit_result(f);
  const bool disabled = h.present() && (h.value == "Y" || h.value == "1");
  if (disabled) return finding("uvm.hmm", Status::kPass, "HMM disabled (uvm_disable_hmm=Y)", ev);
  // The setting allows the failure but does not prove it; only the log signature does (fail above).
  if (init && *init == 3 && module_flavour(f) == Flavour::kOpen)
    return finding(
        "uvm.hmm", Status::kWarn,
        std::string("HMM ") + (h.present() ? "enabled" : "setting unknown") +
            " with cuInit = 3 on the open module: fits the known HMM/KASLR failure (no log signature seen)",
        ev, hint);
  if (!h.present())
    return finding("uvm.hmm", Status::kUnknown, std::string("uvm_disable_hmm ") + to_string(h.seen),
                   ev);
  return finding(
      "uvm.hmm", Status::kPass,
      "HMM enabled (uvm_disable_hmm=" + h.value + ")" + (cuda_works(f) ? ", CUDA initialises" : ""),
      ev);
}

}  // namespace

void userspace(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_uvm_loaded(f));
  out.push_back(check_hmm(f));
  out.push_back(check_userspace_versions(f));
  out.push_back(check_cuda_api(f));
  out.push_back(check_cuda_library(f));
  out.push_back(check_nvml(f));
  out.push_back(check_cuinit(f));
  out.push_back(check_nvml_vs_cuinit(f));
}

}  // namespace p2p::doctor::rules
