// Real peer-tool outputs published in issue threads, blog posts and repositories (fixtures/
// README.md names each source): p2pBandwidthLatencyTest, nvbandwidth and nccl-tests as people
// actually ran and pasted them. Every expectation is read off the capture.
#include <gtest/gtest.h>

#include "import/nccl_tests.hpp"
#include "import/nvbandwidth.hpp"
#include "import/p2p_bandwidth_latency.hpp"
#include "import/tests/test_support.hpp"

namespace p2p::import {
namespace {

using testing::find_figure;
using testing::fixture_text;
using testing::input_error_of;

bool has_note(const ImportedFigures& f, const std::string& part) {
  for (const auto& n : f.file.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// --- p2pBandwidthLatencyTest ---

ImportedFigures sample_figures(const std::string& name) {
  return p2p_bandwidth_latency_figures(parse_p2p_bandwidth_latency(fixture_text(name), name), name);
}

TEST(RealP2pBandwidthLatency, TwoRtx5090WithoutPeerAccessAreStagedEvenWhenP2pIsEnabled) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-2x-rtx5090-no-peer-access.txt"), "5090.txt");
  ASSERT_EQ(out.devices.size(), 2u);
  EXPECT_EQ(out.devices[1], "NVIDIA Graphics Device");
  EXPECT_EQ(out.connectivity, (std::vector<std::vector<int>>{{1, 0}, {0, 1}}));
  EXPECT_EQ(out.matrices.size(), 8u);  // 4 bandwidth, 2 latency titles with GPU and CPU timers

  const auto f = sample_figures("p2p-bandwidth-latency-2x-rtx5090-no-peer-access.txt");
  const auto* w = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu1");
  ASSERT_NE(w, nullptr);
  EXPECT_DOUBLE_EQ(w->median_gbps.value(), 38.20);
  EXPECT_EQ(w->p2p.value_or(true), false);  // "P2P=Enabled", but the pair has no peer access
  EXPECT_EQ(w->method, "staged");
  const auto* bidir = find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "sum");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(bidir->median_gbps.value(), 43.19);
  EXPECT_EQ(bidir->p2p.value_or(true), false);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_write", "gpu1", "gpu0");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 12870.0);
  EXPECT_EQ(lat->p2p.value_or(true), false);
  const auto* cpu = find_figure(f.latency, "memcpy_latency_p2p_off_cpu_timer", "gpu0", "gpu1");
  ASSERT_NE(cpu, nullptr);
  EXPECT_DOUBLE_EQ(cpu->median_ns.value(), 5910.0);
  EXPECT_TRUE(has_note(f, "staged through the host"));
}

TEST(RealP2pBandwidthLatency, FourA100PcieWherePeerAccessFollowsTheNvLinkBridges) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt"), "a100.txt");
  ASSERT_EQ(out.devices.size(), 4u);
  EXPECT_EQ(out.devices[0], "NVIDIA A100 80GB PCIe");
  EXPECT_EQ(out.connectivity[0][1], 1);
  EXPECT_EQ(out.connectivity[0][2], 0);
  EXPECT_EQ(out.connectivity[3][2], 1);

  const auto f = sample_figures("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt");
  const auto* bridged = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu1");
  ASSERT_NE(bridged, nullptr);
  EXPECT_DOUBLE_EQ(bridged->median_gbps.value(), 275.07);
  EXPECT_EQ(bridged->p2p.value_or(false), true);
  EXPECT_EQ(bridged->method, "copy_engine");
  const auto* across = find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu2");
  ASSERT_NE(across, nullptr);
  EXPECT_DOUBLE_EQ(across->median_gbps.value(), 21.62);
  EXPECT_EQ(across->p2p.value_or(true), false);
  EXPECT_EQ(across->method, "staged");
  const auto* bidir = find_figure(f.bandwidth, "ce_bidir", "gpu2", "gpu3", "sum");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(bidir->median_gbps.value(), 517.45);
  const auto* local = find_figure(f.bandwidth, "device_local_ce", "gpu3", "gpu3");
  ASSERT_NE(local, nullptr);
  EXPECT_DOUBLE_EQ(local->median_gbps.value(), 1511.12);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_write", "gpu1", "gpu0");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 2220.0);
  EXPECT_EQ(lat->p2p.value_or(false), true);
}

TEST(RealP2pBandwidthLatency, EightTitanRtxReadsWithNoPeerAccessAnywhere) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-8x-titan-rtx-p2p-read.txt"), "titan.txt");
  ASSERT_EQ(out.devices.size(), 8u);
  EXPECT_EQ(out.devices[7], "TITAN RTX");
  EXPECT_EQ(out.matrices.size(), 11u);  // 5 bandwidth, 3 latency titles with two timers each
  const auto f = sample_figures("p2p-bandwidth-latency-8x-titan-rtx-p2p-read.txt");
  // Reads: row 0 reads from GPU 1, so the data flows gpu1 -> gpu0.
  const auto* read = find_figure(f.bandwidth, "ce_unidir_read", "gpu1", "gpu0");
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->median_gbps.value(), 9.96);
  EXPECT_EQ(read->p2p.value_or(true), false);
  EXPECT_EQ(read->issued_by, "gpu0");
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_read", "gpu4", "gpu5");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 11910.0);
}

TEST(RealP2pBandwidthLatency, SixteenV100OfADgx2WithTwoDigitDeviceNumbers) {
  const auto out = parse_p2p_bandwidth_latency(
      fixture_text("p2p-bandwidth-latency-16x-v100-dgx2-p2p-read.txt"), "dgx2.txt");
  ASSERT_EQ(out.devices.size(), 16u);
  EXPECT_EQ(out.devices[15], "Tesla V100-SXM3-32GB");
  ASSERT_EQ(out.connectivity.size(), 16u);
  EXPECT_EQ(out.connectivity[15][0], 1);
  const auto f = sample_figures("p2p-bandwidth-latency-16x-v100-dgx2-p2p-read.txt");
  ASSERT_EQ(f.gpus.size(), 16u);
  const auto* read = find_figure(f.bandwidth, "ce_unidir_read", "gpu3", "gpu15");
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->median_gbps.value(), 145.51);
  EXPECT_EQ(read->p2p.value_or(false), true);
  const auto* bidir = find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "sum");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(bidir->median_gbps.value(), 270.18);
  const auto* lat = find_figure(f.latency, "memcpy_latency_p2p_read", "gpu0", "gpu1");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 9470.0);
}

// --- nvbandwidth ---

TEST(RealNvbandwidth, MultinodeGb200RunNamesProcessesHostsAndDevices) {
  const auto out =
      parse_nvbandwidth(fixture_text("nvbandwidth-v0.7-mpi-multinode-8x-gb200.txt"), "gb200.txt");
  EXPECT_EQ(out.version, "v0.7");
  EXPECT_EQ(out.cuda_runtime_version.value_or(0), 12080);
  EXPECT_EQ(out.driver_version, "570.124.06");
  ASSERT_EQ(out.devices.size(), 8u);  // "Process N (host): device k: ..." lines
  EXPECT_EQ(out.devices[4], "HGX GB200 (00000008:01:00)");
  ASSERT_EQ(out.process_hosts.size(), 8u);
  EXPECT_EQ(out.process_hosts[3], "nvbandwidth-test-worker-0");
  EXPECT_EQ(out.process_hosts[4], "nvbandwidth-test-worker-1");
  EXPECT_EQ(out.hostname, "");  // two hosts: no one hostname
  ASSERT_EQ(out.matrices.size(), 1u);
  EXPECT_EQ(out.matrices[0].key, "multinode_device_to_device_memcpy_read_ce");
  EXPECT_FALSE(out.matrices[0].cells[5][5].has_value());
  EXPECT_DOUBLE_EQ(out.matrices[0].cells[1][0].value(), 798.10);
  EXPECT_DOUBLE_EQ(out.matrices[0].sum.value(), 44685.29);

  const auto f = nvbandwidth_figures(out, "gb200.txt");
  ASSERT_EQ(f.gpus.size(), 8u);
  EXPECT_EQ(f.gpus[7].name, "HGX GB200");
  EXPECT_EQ(f.bandwidth.size(), 56u);  // 8 x 8 less the diagonal's N/A
  EXPECT_TRUE(has_note(f, "8 processes on 2 hosts"));
}

TEST(RealNvbandwidth, APasteWithoutItsRunningLineStillNamesTheTestcaseBySum) {
  const auto out =
      parse_nvbandwidth(fixture_text("nvbandwidth-v0.8-6x-a6000-d2d-read-elided.txt"), "a6000.txt");
  EXPECT_EQ(out.version, "v0.8");
  EXPECT_EQ(out.driver_version, "580.95.05");
  EXPECT_TRUE(out.devices.empty());  // left out of the paste ("...")
  ASSERT_EQ(out.matrices.size(), 1u);
  EXPECT_EQ(out.matrices[0].testcase, "device_to_device_memcpy_read_ce");
  EXPECT_DOUBLE_EQ(out.matrices[0].cells[3][0].value(), 21.82);
  EXPECT_DOUBLE_EQ(out.matrices[0].sum.value(), 715.53);
  const auto f = nvbandwidth_figures(out, "a6000.txt");
  EXPECT_EQ(f.bandwidth.size(), 30u);
  // read: the row GPU reads from the column GPU: data flows column -> row
  const auto* read = find_figure(f.bandwidth, "ce_unidir_read", "gpu5", "gpu4");
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->median_gbps.value(), 26.34);
}

TEST(RealNvbandwidth, AnAssertAbortingTheRunIsTheRunningTestcasesError) {
  const auto out =
      parse_nvbandwidth(fixture_text("nvbandwidth-v0.7-8x-a100-assert.txt"), "assert.txt");
  ASSERT_EQ(out.devices.size(), 8u);
  EXPECT_EQ(out.devices[7], "NVIDIA A100-SXM4-80GB (00000000:9e:00)");
  EXPECT_TRUE(out.matrices.empty());
  ASSERT_EQ(out.not_measured.size(), 1u);
  EXPECT_EQ(out.not_measured[0].first, "device_to_device_memcpy_read_ce");
  EXPECT_EQ(out.not_measured[0].second, "ASSERT in expression h_errorFlag == 0");
  const auto f = nvbandwidth_figures(out, "assert.txt");
  EXPECT_EQ(f.file.figures, 0);
  EXPECT_TRUE(has_note(f, "device_to_device_memcpy_read_ce: ASSERT"));
}

// --- nccl-tests ---

TEST(RealNcclTests, OneRtx5090WithThePromptNamingTheProgram) {
  // No version or "Collective test starting" line: the pasted command line names the program.
  const auto out =
      parse_nccl_tests(fixture_text("nccl-tests-1x-rtx5090-all_reduce.txt"), "5090.txt");
  EXPECT_EQ(out.version, "");
  ASSERT_EQ(out.runs.size(), 1u);
  const auto& run = out.runs[0];
  EXPECT_EQ(run.collective, "all_reduce");
  EXPECT_EQ(run.hostname, "GENOA-06");
  EXPECT_EQ(run.iterations, 20);
  EXPECT_EQ(run.warmup_iterations, 5);
  ASSERT_EQ(run.rows.size(), 50u);
  EXPECT_EQ(run.rows[48].size_bytes, 134217728u);
  EXPECT_DOUBLE_EQ(run.rows[48].time_us.value(), 175.6);
  EXPECT_DOUBLE_EQ(run.rows[49].algbw_gbps.value(), 1777718.25);  // wider than its column
  EXPECT_DOUBLE_EQ(run.avg_busbw_gbps.value(), 0);                // one rank: nothing crosses a bus
  EXPECT_EQ(run.out_of_bounds.value_or(-1), 0);
  // --collective still wins over the prompt.
  EXPECT_EQ(parse_nccl_tests(fixture_text("nccl-tests-1x-rtx5090-all_reduce.txt"), "5090.txt",
                             "broadcast")
                .runs[0]
                .collective,
            "broadcast");
}

TEST(RealNcclTests, ATestThatFailedBeforeItsFirstRowSaysWhy) {
  const std::string e = input_error_of([] {
    parse_nccl_tests(fixture_text("bad-nccl-tests-2x-rtx5090-test-failure.txt"), "fail.txt");
  });
  EXPECT_EQ(e.rfind("fail.txt: not nccl-tests output: the test failed before its first result "
                    "row: GENOA-06: Test NCCL failure common.cu:392 'unhandled cuda error",
                    0),
            0u)
      << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(RealNcclTests, SixteenRanksOnTwoHostsKeepEachRanksDeviceAndHost) {
  const auto out =
      parse_nccl_tests(fixture_text("nccl-tests-16-ranks-2-hosts-h100-all_reduce.txt"), "16.txt");
  ASSERT_EQ(out.runs.size(), 1u);
  const auto& run = out.runs[0];
  EXPECT_EQ(run.collective, "all_reduce");  // from the quoted mpirun line
  EXPECT_EQ(run.devices.size(), 16u);
  EXPECT_EQ(run.hostname, "ztan-mig-235z");  // rank 0's
  ASSERT_EQ(run.rows.size(), 62u);
  EXPECT_DOUBLE_EQ(run.rows[60].busbw_gbps.value(), 338.82);
  EXPECT_DOUBLE_EQ(run.avg_busbw_gbps.value(), 70.742);

  const auto f = nccl_tests_figures(out, "16.txt");
  EXPECT_EQ(f.hostname, "ztan-mig-235z");
  EXPECT_EQ(f.nccl->results.front().nranks, 16);
  const auto& devices = f.nccl->environment.devices;
  ASSERT_EQ(devices.size(), 16u);
  EXPECT_EQ(devices[8].rank, 8);
  EXPECT_EQ(devices[8].cuda_device, 0);  // "device  0" on the second host, not the rank
  EXPECT_EQ(devices[8].hostname, "ztan-mig-gq73");
  EXPECT_EQ(devices[8].pid.value_or(0), 6733);
  EXPECT_EQ(devices[15].cuda_device, 7);
  EXPECT_EQ(devices[0].hostname, "ztan-mig-235z");
  EXPECT_EQ(devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(has_note(f, "16 ranks on 2 hosts"));
}

TEST(RealNcclTests, MpiBuildWithTwoRanksSharingOneGpu) {
  const auto out =
      parse_nccl_tests(fixture_text("nccl-tests-2.18.0-mpi-2-ranks-all_reduce.txt"), "mpi.txt");
  EXPECT_EQ(out.version, "2.18.0");
  EXPECT_EQ(out.nccl_library_code.value_or(0), 22907);
  ASSERT_EQ(out.runs.size(), 1u);
  const auto& run = out.runs[0];
  EXPECT_EQ(run.collective, "all_reduce");  // "all_reduce_perf_mpi"
  EXPECT_EQ(run.hostname, "lab");
  ASSERT_EQ(run.rows.size(), 50u);
  EXPECT_DOUBLE_EQ(run.rows[0].time_us.value(), 4247.13);
  EXPECT_DOUBLE_EQ(run.rows[49].time_us.value(), 50660.9);
  EXPECT_FALSE(run.out_of_bounds.has_value());  // this run printed no such line
  EXPECT_DOUBLE_EQ(run.avg_busbw_gbps.value(), 0.56824);

  const auto f = nccl_tests_figures(out, "mpi.txt");
  EXPECT_EQ(f.nccl->environment.nccl_library_version, "2.29.7");
  const auto& devices = f.nccl->environment.devices;
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1].cuda_device, 0);  // both ranks on device 0
  EXPECT_EQ(devices[1].pid.value_or(0), 2224660);
  EXPECT_EQ(devices[1].hostname, "");  // one host: named once, in the environment
  EXPECT_EQ(f.nccl->environment.hostname, "lab");
}

TEST(RealNcclTests, CorruptedTransfersOnFourGh200HostsAreWrongRowsNotABadFile) {
  // The page trimmed the output after its last row; the rows reach maxBytes, so only the summary
  // is missing. The point of the capture is its #wrong counts.
  const auto out = parse_nccl_tests(
      fixture_text("nccl-tests-2.17.9-16x-gh200-wrong-elements-no-summary.txt"), "gh200.txt");
  EXPECT_EQ(out.version, "2.17.9");
  ASSERT_EQ(out.runs.size(), 1u);
  const auto& run = out.runs[0];
  EXPECT_EQ(run.max_bytes.value_or(0), 134217728u);
  EXPECT_FALSE(run.avg_busbw_gbps.has_value());
  ASSERT_EQ(run.rows.size(), 56u);
  EXPECT_EQ(run.rows[42].size_bytes, 2097152u);
  EXPECT_EQ(run.rows[42].type, "int8");
  EXPECT_DOUBLE_EQ(run.rows[42].wrong.value(), 18134);
  EXPECT_DOUBLE_EQ(run.rows[45].wrong.value(), 124342);

  const auto f = nccl_tests_figures(out, "gh200.txt");
  const auto& results = f.nccl->results;
  ASSERT_EQ(results.size(), 56u);
  EXPECT_STREQ(doc::to_string(results[42].status), "wrong");
  EXPECT_EQ(results[42].wrong_elements.value_or(0), 18134u);
  EXPECT_EQ(results[43].wrong_elements.value_or(0), 9609u);
  EXPECT_STREQ(doc::to_string(results[53].status), "ok");  // 64 MiB in place: 0 wrong
  EXPECT_EQ(results[0].dtype, "int8");
  EXPECT_EQ(results[0].nranks, 16);
  EXPECT_EQ(f.nccl->environment.devices[5].cuda_device, 1);
  EXPECT_EQ(f.nccl->environment.devices[5].hostname, "gpu-1-47");
  EXPECT_EQ(f.nccl->environment.devices[15].name, "NVIDIA GH200 120GB");
  EXPECT_TRUE(has_note(f, "16 ranks on 4 hosts"));
  EXPECT_TRUE(has_note(f, "the summary was left out"));

  // Cut before maxBytes, the same file is a fragment: the rows above the cut are read.
  std::string text = fixture_text("nccl-tests-2.17.9-16x-gh200-wrong-elements-no-summary.txt");
  text = text.substr(0, text.find("    67108864"));
  const auto cut = nccl_tests_figures(parse_nccl_tests(text, "cut.txt"), "cut.txt");
  EXPECT_EQ(cut.nccl->results.size(), 52u);
  EXPECT_TRUE(has_note(cut, "all_reduce: no \"# Avg bus bandwidth\" line"));
}

}  // namespace
}  // namespace p2p::import
