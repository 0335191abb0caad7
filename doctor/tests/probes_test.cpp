// The live probes end to end against stand-in driver libraries (tests/fake_driver): dlopen,
// symbol lookup, the child process, the pipe and the JSON all run as they do on a GPU host.
#include <gtest/gtest.h>

#include <cstdlib>

#include "doctor/probes.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;

class Probes : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("P2P_FAKE_CUINIT");
    ::unsetenv("P2P_FAKE_CTX1");
    ::unsetenv("P2P_FAKE_NVMLINIT");
  }
};

TEST_F(Probes, CudaProbeReadsEveryDevice) {
  const CudaProbe p = probe_cuda(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, "completed") << p.detail;
  EXPECT_EQ(p.detail, "");
  ASSERT_TRUE(p.library_path.has_value());
  EXPECT_NE(p.library_path->find("fake_libcuda"), std::string::npos) << *p.library_path;
  EXPECT_EQ(p.driver_version, std::optional<int>(13010));
  EXPECT_EQ(p.init_result, std::optional<int>(0));
  EXPECT_EQ(p.device_count, std::optional<int>(2));
  ASSERT_EQ(p.devices.size(), 2u);
  EXPECT_EQ(p.devices[1].name, "Fake GPU 1");
  EXPECT_EQ(p.devices[1].pci_bus_id, "0000:61:00.0");
  EXPECT_EQ(p.devices[1].cc_major, std::optional<int>(12));
  EXPECT_EQ(p.devices[1].context_result, std::optional<int>(0));
  EXPECT_EQ(p.devices[1].alloc_result, std::optional<int>(0));
}

TEST_F(Probes, CuInitFailureIsRecordedNotThrown) {
  ::setenv("P2P_FAKE_CUINIT", "3", 1);
  const CudaProbe p = probe_cuda(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, "completed");
  EXPECT_EQ(p.init_result, std::optional<int>(3));
  EXPECT_FALSE(p.device_count.has_value());
  EXPECT_TRUE(p.devices.empty());
}

TEST_F(Probes, ADriverThatCrashesInsideCuInitLeavesTheDoctorStanding) {
  ::setenv("P2P_FAKE_CUINIT", "crash", 1);
  const CudaProbe p = probe_cuda(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, "crashed");
  EXPECT_EQ(p.detail, "SIGSEGV (stopped inside cuInit)");
  EXPECT_EQ(p.driver_version, std::optional<int>(13010)) << "what came before the crash is kept";
}

TEST_F(Probes, ADriverThatHangsInsideCuInitIsCutOff) {
  ::setenv("P2P_FAKE_CUINIT", "hang", 1);
  const CudaProbe p = probe_cuda(500, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, "timed_out");
  EXPECT_NE(p.detail.find("stopped inside cuInit"), std::string::npos) << p.detail;
}

TEST_F(Probes, AContextFailureIsPerDevice) {
  ::setenv("P2P_FAKE_CTX1", "46", 1);
  const auto j = test::judge_facts([] {
    Facts f = load_facts_file(test::fixture("bare-metal-healthy.json"));
    f.cuda = probe_cuda(20000, P2P_FAKE_LIBCUDA);
    return f;
  }());
  EXPECT_EQ(j.facts.cuda.devices[1].context_result, std::optional<int>(46));
  EXPECT_FALSE(j.facts.cuda.devices[1].alloc_result.has_value());
  EXPECT_EQ(j.status("cuda.init"), Status::kFail);
}

TEST_F(Probes, MissingLibraryIsAFact) {
  const CudaProbe c = probe_cuda(20000, "libp2pcheck-no-such-libcuda.so.1");
  EXPECT_EQ(c.status, "library_missing");
  EXPECT_NE(c.detail.find("libp2pcheck-no-such-libcuda.so.1"), std::string::npos);
  const NvmlProbe n = probe_nvml(20000, "libp2pcheck-no-such-nvml.so.1");
  EXPECT_EQ(n.status, "library_missing");
}

TEST_F(Probes, NvmlProbeReadsDevicesAndPairs) {
  const NvmlProbe p = probe_nvml(20000, P2P_FAKE_LIBNVML);
  EXPECT_EQ(p.status, "completed") << p.detail;
  EXPECT_EQ(p.init_result, std::optional<int>(0));
  EXPECT_EQ(p.driver_version, std::optional<std::string>("590.48.01"));
  EXPECT_EQ(p.cuda_driver_version, std::optional<int>(13010));
  ASSERT_EQ(p.devices.size(), 2u);
  EXPECT_EQ(p.devices[0].pci_bus_id, "0000:41:00.0") << "NVML's 8-digit domain is normalised";
  EXPECT_EQ(p.devices[1].pcie_width_current, std::optional<int>(8));
  EXPECT_EQ(p.devices[0].bar1_total_bytes, std::optional<std::uint64_t>(128ull << 30));
  EXPECT_EQ(p.devices[0].gsp_firmware_enabled, std::optional<bool>(true));
  EXPECT_EQ(p.devices[0].gsp_firmware_version, std::optional<std::string>("590.48.01"));
  EXPECT_EQ(p.devices[0].virtualization_mode, std::optional<int>(1));
  EXPECT_FALSE(p.devices[0].fabric_state.has_value()) << "NOT_SUPPORTED leaves the fabric state unknown";
  ASSERT_EQ(p.pairs.size(), 1u);
  EXPECT_EQ(p.pairs[0].read, std::optional<int>(1));
  EXPECT_EQ(p.pairs[0].nvlink, std::optional<int>(5));
  EXPECT_EQ(p.pairs[0].common_ancestor, std::optional<int>(30));
}

TEST_F(Probes, NvmlInitFailureStopsThere) {
  ::setenv("P2P_FAKE_NVMLINIT", "18", 1);
  const NvmlProbe p = probe_nvml(20000, P2P_FAKE_LIBNVML);
  EXPECT_EQ(p.status, "completed");
  EXPECT_EQ(p.init_result, std::optional<int>(18));
  EXPECT_TRUE(p.devices.empty());
}

TEST_F(Probes, DeviceOpensReportErrnoNames) {
  const auto r = probe_opens({"/dev/null", "/nonexistent/p2pcheck-node"}, 20000);
  EXPECT_EQ(r.at("/dev/null"), "ok");
  EXPECT_EQ(r.at("/nonexistent/p2pcheck-node"), "ENOENT");
}

}  // namespace
