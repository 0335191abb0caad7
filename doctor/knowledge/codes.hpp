// Names and meanings of the numbers the driver libraries return. The doctor never prints a
// bare code: "cuInit = 3" means nothing to most readers, "CUDA_ERROR_NOT_INITIALIZED: ..." does.
#pragma once

#include <string>

namespace p2p::doctor {

// "CUDA_ERROR_NOT_INITIALIZED" for 3; "CUresult 12345" for codes we do not know.
std::string cu_result_name(int code);
// What a failed cuInit with this code usually means on a Linux host, and where to look next.
// Empty for codes without a specific story.
std::string cu_init_explanation(int code);

// "NVML_ERROR_LIB_RM_VERSION_MISMATCH" for 18.
std::string nvml_return_name(int code);

// nvmlGpuP2PStatus_t: "OK", "CHIPSET_NOT_SUPPORTED", ... and the `nvidia-smi topo -p2p` letters.
std::string p2p_status_name(int status);
std::string p2p_status_short(int status);  // OK, CNS, GNS, TNS, DR, NS, U

// nvmlGpuVirtualizationMode_t as nvidia-smi prints it ("Pass-Through").
std::string virtualization_mode_name(int mode);
// nvmlComputeMode_t ("Default", "Prohibited", "Exclusive_Process").
std::string compute_mode_name(int mode);
// nvmlGpuTopologyLevel_t in the `nvidia-smi topo -m` legend (30 -> "PHB").
std::string topology_level_name(int level);
// nvmlGpuFabricState_t.
std::string fabric_state_name(int state);

// "EACCES" for EACCES; "errno N" for the rest.
std::string errno_name(int err);

// 13000 -> "13.0"; 12080 -> "12.8".
std::string cuda_version_string(int version);

}  // namespace p2p::doctor
