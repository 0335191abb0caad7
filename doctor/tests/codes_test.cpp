#include "doctor/knowledge/codes.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include "doctor/derived.hpp"
#include "doctor/knowledge/gpu_generation.hpp"

namespace {

using namespace p2p::doctor;

TEST(Codes, EveryCuInitResultOfTheCatalogueHasANameAndAStory) {
  const std::pair<int, const char*> codes[] = {{3, "CUDA_ERROR_NOT_INITIALIZED"},
                                               {34, "CUDA_ERROR_STUB_LIBRARY"},
                                               {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
                                               {100, "CUDA_ERROR_NO_DEVICE"},
                                               {101, "CUDA_ERROR_INVALID_DEVICE"},
                                               {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
                                               {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
                                               {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
                                               {999, "CUDA_ERROR_UNKNOWN"}};
  for (const auto& [code, name] : codes) {
    EXPECT_EQ(cu_result_name(code), name);
    EXPECT_FALSE(cu_init_explanation(code).empty()) << code;
  }
  // 35 is the runtime's cudaErrorInsufficientDriver: explained, and said not to be a CUresult.
  EXPECT_NE(cu_init_explanation(35).find("runtime-API"), std::string::npos);
  EXPECT_NE(cu_init_explanation(802).find("fabricmanager"), std::string::npos);
  EXPECT_NE(cu_init_explanation(3).find("HMM"), std::string::npos);
  EXPECT_EQ(cu_result_name(12345), "CUresult 12345");
}

TEST(Codes, NvmlAndP2pNames) {
  EXPECT_EQ(nvml_return_name(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
  EXPECT_EQ(nvml_return_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
  EXPECT_EQ(p2p_status_name(1), "CHIPSET_NOT_SUPPORTED");
  EXPECT_EQ(p2p_status_name(4), "DISABLED_BY_REGKEY");
  EXPECT_EQ(p2p_status_short(3), "TNS");
  EXPECT_EQ(virtualization_mode_name(1), "Pass-Through");
  EXPECT_EQ(compute_mode_name(3), "Exclusive_Process");
  EXPECT_EQ(topology_level_name(30), "PHB");
  EXPECT_EQ(fabric_state_name(3), "COMPLETED");
  EXPECT_EQ(errno_name(EPERM), "EPERM");
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
}

TEST(GpuGeneration, FirmwareFileAndOpenModuleByDeviceId) {
  const auto rtx_pro = generation_from_device_id(0x2BB5);
  EXPECT_EQ(rtx_pro.name, "Blackwell");
  EXPECT_EQ(rtx_pro.gsp_firmware, "gsp_ga10x.bin");
  EXPECT_TRUE(rtx_pro.needs_open_module);
  EXPECT_TRUE(generation_from_device_id(0x2901).needs_open_module);  // B200
  EXPECT_TRUE(generation_from_device_id(0x2B85).needs_open_module);  // RTX 5090
  const auto h200 = generation_from_device_id(0x2335);
  EXPECT_EQ(h200.name, "Hopper");
  EXPECT_EQ(h200.gsp_firmware, "gsp_ga10x.bin");
  EXPECT_FALSE(h200.needs_open_module);
  EXPECT_EQ(generation_from_device_id(0x20B2).gsp_firmware,
            "gsp_tu10x.bin");  // A100 is GA100: the Turing file
  EXPECT_EQ(generation_from_device_id(0x2230).name, "Ampere");
  EXPECT_EQ(generation_from_device_id(0x26B9).name, "Ada");
  EXPECT_EQ(generation_from_device_id(0x1E04).gsp_firmware, "gsp_tu10x.bin");
  EXPECT_EQ(generation_from_device_id(0x1DB6).gsp_firmware, "");  // Volta: no GSP
  EXPECT_FALSE(generation_from_device_id(0).known);
  EXPECT_TRUE(generation_from_nvml_architecture(10).needs_open_module);
  EXPECT_TRUE(is_gpu_class(0x030200));
  EXPECT_TRUE(is_gpu_class(0x030000));
  EXPECT_FALSE(is_gpu_class(0x040300));  // the HDMI audio function
  EXPECT_TRUE(is_nvswitch_class(0x068000));
}

TEST(Derived, BusIdsFromEverySourceMatch) {
  EXPECT_EQ(normalize_bdf("00000000:00:06.0"), "0000:00:06.0");  // NVML
  EXPECT_EQ(normalize_bdf("0000:41:00.0"), "0000:41:00.0");      // CUDA, sysfs
  EXPECT_EQ(normalize_bdf("0000:C1:00.0"), "0000:c1:00.0");
  EXPECT_EQ(normalize_bdf("41:00.0"), "0000:41:00.0");
}

TEST(Derived, LibraryVersionComesFromTheResolvedFileName) {
  EXPECT_EQ(library_version(std::string("/usr/lib/x86_64-linux-gnu/libcuda.so.590.48.01")),
            "590.48.01");
  EXPECT_FALSE(library_version(std::string("/usr/lib/libcuda.so.1")).has_value());
  EXPECT_FALSE(library_version(std::nullopt).has_value());
  EXPECT_TRUE(
      is_stub_path(std::string("/usr/local/cuda-12.8/targets/x86_64-linux/lib/stubs/libcuda.so")));
  EXPECT_TRUE(is_compat_path(std::string("/usr/local/cuda-13.0/compat/libcuda.so.580.95.05")));
  EXPECT_FALSE(is_stub_path(std::string("/usr/lib/libcuda.so.580.159.04")));
}

}  // namespace
