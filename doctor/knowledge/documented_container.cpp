// The NVIDIA Container Toolkit's environment: which GPUs (NVIDIA_VISIBLE_DEVICES) and which driver
// parts (NVIDIA_DRIVER_CAPABILITIES) the runtime mounts into a container, and what a container
// without libcuda shows. The symptom is a missing library; the cause is the container's settings.
#include "doctor/knowledge/documented_table.hpp"

namespace p2p::doctor {

namespace {

using Op = FactOp;

const FactTest kNotInContainer{"environment.kind", Op::kIsNot, "container"};
const FactTest kNoModule{"module.loaded", Op::kIs, "no"};
const FactTest kCapabilitiesAll{"env.NVIDIA_DRIVER_CAPABILITIES", Op::kHas, "all"};

DocumentedCause no_gpus_cause() {
  return {"container_no_gpus",
          "the container runtime gave this container no GPU",
          {{"devices.gpu_nodes", Op::kIs, "0"}},
          {kNotInContainer, kNoModule, {"devices.gpu_nodes", Op::kIsNot, "0"}},
          "start the container with its GPUs: docker run --gpus all (or NVIDIA_VISIBLE_DEVICES=all "
          "with the nvidia runtime, CDI --device nvidia.com/gpu=all, or a Kubernetes "
          "nvidia.com/gpu request)"};
}

// NVML (utility) mounted and libcuda (compute) not: the runtime was asked for utility alone, as
// Docker's `capabilities: [gpu]` and images that set only utility do.
DocumentedCause capabilities_cause(const char* title) {
  return {"driver_capabilities",
          title,
          {{"env.NVIDIA_DRIVER_CAPABILITIES", Op::kLacks, "compute"},
           {"nvml.probe", Op::kIs, "completed"}},
          {kNotInContainer, kCapabilitiesAll, kNoModule},
          "start the container with NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all): the "
          "runtime mounts libcuda only for compute and nvidia-smi/NVML only for utility"};
}

}  // namespace

DocumentedTable container_toolkit_table() {
  return {
      "container_toolkit",
      "NVIDIA Container Toolkit",
      "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
      "docker-specialized.html (environment variables); "
      "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
      "troubleshooting.html",
      true,
      {
          {{"env.NVIDIA_VISIBLE_DEVICES", Op::kIs, "void"},
           Status::kFail,
           "the runtime mounts no GPU and no driver into the container",
           {no_gpus_cause()}},
          {{"env.NVIDIA_VISIBLE_DEVICES", Op::kIs, "none"},
           Status::kFail,
           "the runtime mounts the driver but no GPU into the container",
           {no_gpus_cause()}},
          {{"env.NVIDIA_DRIVER_CAPABILITIES", Op::kLacks, "compute"},
           Status::kFail,
           "the container was not given the compute capability: libcuda is not mounted",
           {capabilities_cause("NVIDIA_DRIVER_CAPABILITIES lacks compute: no libcuda in the "
                               "container")}},
          {{"env.NVIDIA_DRIVER_CAPABILITIES", Op::kLacks, "utility"},
           Status::kWarn,
           "the container was not given the utility capability: no nvidia-smi or NVML",
           {{"driver_capabilities",
             "NVIDIA_DRIVER_CAPABILITIES lacks utility: no nvidia-smi or NVML in the container",
             {{"nvml.probe", Op::kIs, "library_missing"}},
             {kNotInContainer, kCapabilitiesAll},
             "add utility to NVIDIA_DRIVER_CAPABILITIES (compute,utility)"}}},
          {{"cuda.probe", Op::kIs, "library_missing"},
           Status::kFail,
           "libcuda.so.1 is not where the loader looks",
           {capabilities_cause("NVIDIA_DRIVER_CAPABILITIES lacks compute: no libcuda in the "
                               "container"),
            no_gpus_cause(),
            {"container_ldcache",
             "the driver's libraries were mounted but the loader cannot find them",
             {{"nvml.probe", Op::kIs, "library_missing"}},
             {kNotInContainer, kNoModule, {"devices.gpu_nodes", Op::kIs, "0"}},
             "let the toolkit update the container's loader cache (ldconfig = @/sbin/ldconfig in "
             "/etc/nvidia-container-runtime/config.toml; an image without ldconfig needs it), or "
             "run ldconfig in the container"},
            {"libcuda_missing",
             "the driver's user-space libraries are not installed",
             {},
             {{"environment.kind", Op::kIs, "container"}, kNoModule},
             "install the driver's user-space package of exactly the module's version"}}},
      }};
}

}  // namespace p2p::doctor
