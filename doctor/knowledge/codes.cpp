#include "doctor/knowledge/codes.hpp"

#include <cerrno>
#include <map>

namespace p2p::doctor {

namespace {

template <class Map>
std::string lookup(const Map& m, int code, const std::string& fallback) {
  const auto it = m.find(code);
  return it != m.end() ? std::string(it->second) : fallback + " " + std::to_string(code);
}

}  // namespace

std::string cu_result_name(int code) {
  // Values of `enum cudaError_enum` in cuda.h: those cuInit and a first context can return, and
  // those of the peer-copy probe (peer access, PTX, a faulting copy).
  static const std::map<int, const char*> kNames = {
      {0, "CUDA_SUCCESS"},
      {1, "CUDA_ERROR_INVALID_VALUE"},
      {2, "CUDA_ERROR_OUT_OF_MEMORY"},
      {3, "CUDA_ERROR_NOT_INITIALIZED"},
      {4, "CUDA_ERROR_DEINITIALIZED"},
      {34, "CUDA_ERROR_STUB_LIBRARY"},
      {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
      {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
      {100, "CUDA_ERROR_NO_DEVICE"},
      {101, "CUDA_ERROR_INVALID_DEVICE"},
      {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
      {201, "CUDA_ERROR_INVALID_CONTEXT"},
      {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
      {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
      {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
      {218, "CUDA_ERROR_INVALID_PTX"},
      {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
      {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
      {304, "CUDA_ERROR_OPERATING_SYSTEM"},
      {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
      {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
      {711, "CUDA_ERROR_TOO_MANY_PEERS"},
      {800, "CUDA_ERROR_NOT_PERMITTED"},
      {801, "CUDA_ERROR_NOT_SUPPORTED"},
      {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
      {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
      {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
      {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
      {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
      {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
      {999, "CUDA_ERROR_UNKNOWN"},
  };
  return lookup(kNames, code, "CUresult");
}

std::string cu_init_explanation(int code) {
  switch (code) {
    case 0: return "the CUDA driver initialised";
    case 3:
      return "the driver failed internally during initialisation: typically the UVM/HMM setup "
             "(HMM with KASLR on recent kernels), nvidia_uvm missing, or GSP/RmInitAdapter failing "
             "on a GPU; also seen when CUDA is used in a child after fork()";
    case 34:
      return "the CUDA toolkit's stub libcuda was loaded instead of the driver's libcuda.so.1";
    case 35:
      return "cudaErrorInsufficientDriver is a runtime-API code (there is no CUresult 35): "
             "the CUDA runtime is newer than the driver";
    case 46:
      return "the device is unavailable: compute mode EXCLUSIVE_PROCESS already taken, or PROHIBITED";
    case 100:
      return "no CUDA device: CUDA_VISIBLE_DEVICES is empty, -1 or invalid, /dev/nvidiaN is missing, "
             "or every GPU failed to initialise";
    case 101:
      return "invalid device ordinal: an ordinal outside the visible set (check CUDA_VISIBLE_DEVICES)";
    case 304: return "an OS call failed inside the driver (often a blocked or missing device node)";
    case 802:
      return "system not ready: a required daemon is not running; on NVSwitch/HGX systems this is "
             "nvidia-fabricmanager";
    case 803:
      return "system driver mismatch: this libcuda (often a cuda-compat package) cannot drive the "
             "installed kernel module";
    case 804:
      return "forward-compatibility libcuda on a GPU that does not support forward compatibility "
             "(only data-centre and selected RTX server GPUs do)";
    case 999:
      return "unknown driver error: often a missing or wrong-major /dev/nvidia-uvm, nvidia_uvm not loaded, "
             "or nvidia_uvm left broken by a suspend/resume (reload it)";
    default: return "";
  }
}

std::string nvml_return_name(int code) {
  static const std::map<int, const char*> kNames = {
      {0, "NVML_SUCCESS"},
      {1, "NVML_ERROR_UNINITIALIZED"},
      {2, "NVML_ERROR_INVALID_ARGUMENT"},
      {3, "NVML_ERROR_NOT_SUPPORTED"},
      {4, "NVML_ERROR_NO_PERMISSION"},
      {5, "NVML_ERROR_ALREADY_INITIALIZED"},
      {6, "NVML_ERROR_NOT_FOUND"},
      {7, "NVML_ERROR_INSUFFICIENT_SIZE"},
      {8, "NVML_ERROR_INSUFFICIENT_POWER"},
      {9, "NVML_ERROR_DRIVER_NOT_LOADED"},
      {10, "NVML_ERROR_TIMEOUT"},
      {11, "NVML_ERROR_IRQ_ISSUE"},
      {12, "NVML_ERROR_LIBRARY_NOT_FOUND"},
      {13, "NVML_ERROR_FUNCTION_NOT_FOUND"},
      {14, "NVML_ERROR_CORRUPTED_INFOROM"},
      {15, "NVML_ERROR_GPU_IS_LOST"},
      {16, "NVML_ERROR_RESET_REQUIRED"},
      {17, "NVML_ERROR_OPERATING_SYSTEM"},
      {18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
      {19, "NVML_ERROR_IN_USE"},
      {20, "NVML_ERROR_MEMORY"},
      {21, "NVML_ERROR_NO_DATA"},
      {22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED"},
      {23, "NVML_ERROR_INSUFFICIENT_RESOURCES"},
      {999, "NVML_ERROR_UNKNOWN"},
  };
  return lookup(kNames, code, "nvmlReturn_t");
}

std::string p2p_status_name(int status) {
  // nvml.h spells the first one CHIPSET_NOT_SUPPORED; we print it correctly.
  static const std::map<int, const char*> kNames = {
      {0, "OK"},
      {1, "CHIPSET_NOT_SUPPORTED"},
      {2, "GPU_NOT_SUPPORTED"},
      {3, "IOH_TOPOLOGY_NOT_SUPPORTED"},
      {4, "DISABLED_BY_REGKEY"},
      {5, "NOT_SUPPORTED"},
      {6, "UNKNOWN"},
  };
  return lookup(kNames, status, "p2p status");
}

std::string p2p_status_short(int status) {
  static const std::map<int, const char*> kNames = {{0, "OK"}, {1, "CNS"}, {2, "GNS"}, {3, "TNS"},
                                                    {4, "DR"}, {5, "NS"},  {6, "U"}};
  return lookup(kNames, status, "?");
}

std::string virtualization_mode_name(int mode) {
  static const std::map<int, const char*> kNames = {
      {0, "None"}, {1, "Pass-Through"}, {2, "vGPU"}, {3, "Host vGPU"}, {4, "Host VSGA"}};
  return lookup(kNames, mode, "mode");
}

std::string compute_mode_name(int mode) {
  static const std::map<int, const char*> kNames = {
      {0, "Default"}, {1, "Exclusive_Thread"}, {2, "Prohibited"}, {3, "Exclusive_Process"}};
  return lookup(kNames, mode, "compute mode");
}

std::string topology_level_name(int level) {
  static const std::map<int, const char*> kNames = {{0, "internal"}, {10, "PIX"},  {20, "PXB"},
                                                    {30, "PHB"},     {40, "NODE"}, {50, "SYS"}};
  return lookup(kNames, level, "level");
}

std::string fabric_state_name(int state) {
  static const std::map<int, const char*> kNames = {
      {0, "NOT_SUPPORTED"}, {1, "NOT_STARTED"}, {2, "IN_PROGRESS"}, {3, "COMPLETED"}};
  return lookup(kNames, state, "state");
}

std::string errno_name(int err) {
  static const std::map<int, const char*> kNames = {
      {EPERM, "EPERM"},   {ENOENT, "ENOENT"},      {EIO, "EIO"},       {ENXIO, "ENXIO"},
      {EAGAIN, "EAGAIN"}, {ENOMEM, "ENOMEM"},      {EACCES, "EACCES"}, {EBUSY, "EBUSY"},
      {ENODEV, "ENODEV"}, {ENOTDIR, "ENOTDIR"},    {EISDIR, "EISDIR"}, {EINVAL, "EINVAL"},
      {ENOTTY, "ENOTTY"}, {EROFS, "EROFS"},        {ENOSYS, "ENOSYS"}, {EPIPE, "EPIPE"},
      {ELOOP, "ELOOP"},   {ETIMEDOUT, "ETIMEDOUT"}};
  return lookup(kNames, err, "errno");
}

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace p2p::doctor
