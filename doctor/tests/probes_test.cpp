// The live probes end to end against stand-in driver libraries (tests/fake_driver): dlopen,
// symbol lookup, the child process, the pipe and the JSON all run as they do on a GPU host.
#include "doctor/collect/probes.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "test_support.hpp"

namespace {

using namespace p2p::doctor;

class Probes : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("P2P_FAKE_CUINIT");
    ::unsetenv("P2P_FAKE_CTX1");
    ::unsetenv("P2P_FAKE_NVMLINIT");
    ::unsetenv("P2P_FAKE_PEER");
    ::unsetenv("P2P_FAKE_MODULE");
    ::unsetenv("P2P_DOCTOR_PEER_COPY_FAULT");
    ::unsetenv("P2P_FAKE_NVML_PROCS");
    ::unsetenv("P2P_FAKE_NVML_UTIL");
  }
};

TEST_F(Probes, CudaProbeReadsEveryDevice) {
  const CudaProbe p = probe_cuda(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, ProbeStatus::kCompleted) << p.detail;
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
  EXPECT_EQ(p.status, ProbeStatus::kCompleted);
  EXPECT_EQ(p.init_result, std::optional<int>(3));
  EXPECT_FALSE(p.device_count.has_value());
  EXPECT_TRUE(p.devices.empty());
}

TEST_F(Probes, ADriverThatCrashesInsideCuInitLeavesTheDoctorStanding) {
  ::setenv("P2P_FAKE_CUINIT", "crash", 1);
  const CudaProbe p = probe_cuda(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, ProbeStatus::kCrashed);
  EXPECT_EQ(p.detail, "SIGSEGV (stopped inside cuInit)");
  EXPECT_EQ(p.driver_version, std::optional<int>(13010)) << "what came before the crash is kept";
}

TEST_F(Probes, ADriverThatHangsInsideCuInitIsCutOff) {
  ::setenv("P2P_FAKE_CUINIT", "hang", 1);
  const CudaProbe p = probe_cuda(500, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, ProbeStatus::kTimedOut);
  EXPECT_NE(p.detail.find("stopped inside cuInit"), std::string::npos) << p.detail;
}

TEST_F(Probes, TheInitProbeCountsDevicesWithoutOpeningThem) {
  ::setenv("P2P_FAKE_CTX1", "46", 1);  // would show as a context failure if it opened one
  const CudaProbe p = probe_cuda_init(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, ProbeStatus::kCompleted) << p.detail;
  EXPECT_EQ(p.init_result, std::optional<int>(0));
  EXPECT_EQ(p.device_count, std::optional<int>(2));
  EXPECT_TRUE(p.devices.empty());
}

TEST_F(Probes, TheInitProbeIsCutOffByAHangAndSurvivesACrash) {
  ::setenv("P2P_FAKE_CUINIT", "hang", 1);
  EXPECT_EQ(probe_cuda_init(500, P2P_FAKE_LIBCUDA).status, ProbeStatus::kTimedOut);
  ::setenv("P2P_FAKE_CUINIT", "crash", 1);
  const CudaProbe crashed = probe_cuda_init(20000, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(crashed.status, ProbeStatus::kCrashed);
  EXPECT_EQ(crashed.detail, "SIGSEGV (stopped inside cuInit)");
}

TEST_F(Probes, GpuActivityListsEveryProcessAndTheUtilisationByBusId) {
  ::setenv("P2P_FAKE_NVML_PROCS", "4242:compute:1073741824,77:graphics:0", 1);
  ::setenv("P2P_FAKE_NVML_UTIL", "87", 1);
  const auto seen =
      probe_gpu_activity({"0000:41:00.0", "0000:61:00.0", "0000:99:00.0"}, 20000, P2P_FAKE_LIBNVML);
  ASSERT_TRUE(seen.has_value());
  ASSERT_EQ(seen->size(), 3u);
  const auto& first = (*seen)[0];
  EXPECT_TRUE(first.nvml);
  ASSERT_EQ(first.processes.size(), 2u);
  EXPECT_EQ(first.processes[0].pid, 4242);
  EXPECT_EQ(first.processes[0].kind, "compute");
  EXPECT_EQ(first.processes[0].used_bytes, std::optional<std::uint64_t>(1073741824));
  EXPECT_EQ(first.processes[1].kind, "graphics");
  EXPECT_EQ(first.utilization_percent, std::optional<int>(87));
  EXPECT_TRUE((*seen)[1].processes.empty());
  EXPECT_FALSE((*seen)[2].nvml) << "a bus id NVML does not know";
}

TEST_F(Probes, GpuActivityWithoutNvmlIsNoAnswer) {
  EXPECT_FALSE(
      probe_gpu_activity({"0000:41:00.0"}, 20000, "libp2pcheck-no-such-nvml.so.1").has_value());
  ::setenv("P2P_FAKE_NVMLINIT", "9", 1);
  EXPECT_FALSE(probe_gpu_activity({"0000:41:00.0"}, 20000, P2P_FAKE_LIBNVML).has_value());
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
  EXPECT_EQ(c.status, ProbeStatus::kLibraryMissing);
  EXPECT_NE(c.detail.find("libp2pcheck-no-such-libcuda.so.1"), std::string::npos);
  const NvmlProbe n = probe_nvml(20000, "libp2pcheck-no-such-nvml.so.1");
  EXPECT_EQ(n.status, ProbeStatus::kLibraryMissing);
}

TEST_F(Probes, NvmlProbeReadsDevicesAndPairs) {
  const NvmlProbe p = probe_nvml(20000, P2P_FAKE_LIBNVML);
  EXPECT_EQ(p.status, ProbeStatus::kCompleted) << p.detail;
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
  EXPECT_EQ(p.devices[1].uuid,
            std::optional<std::string>("GPU-9f8e7d6c-0000-1111-2222-333344445555"));
  EXPECT_FALSE(p.devices[0].fabric_state.has_value())
      << "NOT_SUPPORTED leaves the fabric state unknown";
  ASSERT_EQ(p.pairs.size(), 1u);
  EXPECT_EQ(p.pairs[0].read, std::optional<int>(1));
  EXPECT_EQ(p.pairs[0].nvlink, std::optional<int>(5));
  EXPECT_EQ(p.pairs[0].common_ancestor, std::optional<int>(30));
}

TEST_F(Probes, NvmlInitFailureStopsThere) {
  ::setenv("P2P_FAKE_NVMLINIT", "18", 1);
  const NvmlProbe p = probe_nvml(20000, P2P_FAKE_LIBNVML);
  EXPECT_EQ(p.status, ProbeStatus::kCompleted);
  EXPECT_EQ(p.init_result, std::optional<int>(18));
  EXPECT_TRUE(p.devices.empty());
}

// The peer-copy probe against the stand-in: host memory plays device memory and the two PTX
// kernels run as loops, so the pairs, the checks and the JSON all run as on a GPU host.
TEST_F(Probes, PeerCopyChecksEveryOrderedPair) {
  const PeerCopyProbe p = probe_peer_copy(20000, 0, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.status, ProbeStatus::kCompleted) << p.detail;
  EXPECT_EQ(p.mode, PeerCopyMode::kPairs);
  ASSERT_EQ(p.pairs.size(), 2u);
  for (const auto& pair : p.pairs) {
    EXPECT_EQ(pair.can_access_peer, std::optional<bool>(true));
    EXPECT_EQ(pair.copy_result, CopyResult::kOk) << pair.detail;
    EXPECT_EQ(pair.store_result, CopyResult::kOk) << pair.detail;
    EXPECT_EQ(pair.copy_mismatched_words, std::optional<std::uint64_t>(0));
    EXPECT_EQ(pair.words, 262144u);
  }
  EXPECT_EQ(p.pairs[1].src_bus_id, "0000:61:00.0");
  EXPECT_EQ(p.pairs[1].dst_bus_id, "0000:41:00.0");
}

TEST_F(Probes, PeerWritesThatNeverArriveAreCountedOnTheDestination) {
  ::setenv("P2P_FAKE_PEER", "drop", 1);
  const auto j = test::judge_facts([] {
    Facts f = load_facts_file(test::fixture("bare-metal-healthy.json"));
    f.peer_copy = probe_peer_copy(20000, 0, P2P_FAKE_LIBCUDA);
    return f;
  }());
  ASSERT_EQ(j.facts.peer_copy.pairs.size(), 2u);
  EXPECT_EQ(j.facts.peer_copy.pairs[0].copy_result, CopyResult::kCorrupt);
  EXPECT_EQ(j.facts.peer_copy.pairs[0].store_result, CopyResult::kCorrupt);
  EXPECT_GT(*j.facts.peer_copy.pairs[0].copy_mismatched_words, 262000u);
  EXPECT_EQ(j.status("p2p.copy"), Status::kFail);
  EXPECT_TRUE(test::contains(j.at("p2p.copy").summary,
                             "P2P claimed but data did not arrive on 2 of 2 pair(s)"));
  EXPECT_TRUE(j.has_cause("p2p_data_lost"));
}

TEST_F(Probes, PeerCopyWithoutPeerAccessRecordsWhyNothingRan) {
  ::setenv("P2P_FAKE_PEER", "none", 1);
  const PeerCopyProbe p = probe_peer_copy(20000, 0, P2P_FAKE_LIBCUDA);
  ASSERT_EQ(p.pairs.size(), 2u);
  EXPECT_EQ(p.pairs[0].can_access_peer, std::optional<bool>(false));
  EXPECT_EQ(p.pairs[0].copy_result, CopyResult::kNotRun);
  EXPECT_TRUE(test::contains(p.pairs[0].detail, "no peer access"));
}

TEST_F(Probes, PeerCopyWithoutKernelsChecksThroughTheHostAndSaysTheStoreDidNotRun) {
  ::setenv("P2P_FAKE_MODULE", "fail", 1);
  const PeerCopyProbe p = probe_peer_copy(20000, 0, P2P_FAKE_LIBCUDA);
  ASSERT_EQ(p.pairs.size(), 2u);
  EXPECT_EQ(p.pairs[0].copy_result, CopyResult::kOk);
  EXPECT_EQ(p.pairs[0].store_result, CopyResult::kNotRun);
  EXPECT_TRUE(test::contains(p.pairs[0].detail, "SM store not run: cuModuleLoadData = 218"));
}

TEST_F(Probes, LogicalGpusAndTheFaultHookRunEveryPairPathOnFewerGpus) {
  ::setenv("P2P_DOCTOR_PEER_COPY_FAULT", "corrupt", 1);
  const PeerCopyProbe p = probe_peer_copy(20000, 3, P2P_FAKE_LIBCUDA);
  EXPECT_EQ(p.mode, PeerCopyMode::kLogical);
  EXPECT_EQ(p.detail, "3 logical GPUs on 2 GPU(s)");
  ASSERT_EQ(p.pairs.size(), 6u);
  EXPECT_EQ(p.pairs[1].dst_bus_id, "0000:41:00.0") << "logical GPU 2 lives on device 0";
  for (const auto& pair : p.pairs) {
    EXPECT_EQ(pair.copy_result, CopyResult::kCorrupt);
    EXPECT_EQ(pair.copy_mismatched_words, std::optional<std::uint64_t>(1024));
    EXPECT_TRUE(test::contains(pair.detail, "test fault hook")) << pair.detail;
  }
}

TEST_F(Probes, PeerCopyWithoutLibcudaIsAFact) {
  EXPECT_EQ(probe_peer_copy(20000, 0, "libp2pcheck-no-such-libcuda.so.1").status,
            ProbeStatus::kLibraryMissing);
}

TEST_F(Probes, DeviceOpensReportErrnoNames) {
  const auto r = probe_opens({"/dev/null", "/nonexistent/p2pcheck-node"}, 20000);
  EXPECT_TRUE(r.at("/dev/null").opened);
  EXPECT_FALSE(r.at("/nonexistent/p2pcheck-node").opened);
  EXPECT_EQ(r.at("/nonexistent/p2pcheck-node").error, "ENOENT");
}

}  // namespace
