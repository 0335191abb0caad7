// `nccl transports` on real NCCL_DEBUG=INFO logs pasted into public issue threads (each fixture's
// source is in tests/fixtures/README.md): NCCL 2.x wording from 2018 to 2.22, mixed with other
// programs' output, interleaved by several processes, cut short.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "common/file_io.hpp"
#include "nccl/transport_summary.hpp"

namespace p2p::nccl {
namespace {

std::string fixture_text(const std::string& name) {
  return read_text_file(std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures/" + name);
}

TransportSummary capture(const std::string& name) {
  return summarize_transports({{name, fixture_text(name)}});
}

const doc::TransportCell& capture_cell(const TransportSummary& r, int s, int d) {
  return r.matrix.cell(s, d);
}

using Names = std::vector<std::string>;
using Vias = std::set<std::string>;

std::set<std::string> hosts_of(const TransportSummary& r) {
  std::set<std::string> hosts;
  for (const LoggedRank& k : r.log.ranks) hosts.insert(k.host);
  return hosts;
}

const LoggedRank& rank_of(const TransportSummary& r, int rank) {
  static const LoggedRank none{};
  for (const LoggedRank& k : r.log.ranks)
    if (k.rank == rank) return k;
  ADD_FAILURE() << "no rank " << rank;
  return none;
}

int channels_of(const TransportSummary& r, int s, int d) { return capture_cell(r, s, d).channels; }

TEST(RealNcclLogs, EarlyRingLinesInterleavedByEightProcesses) {
  const auto r = capture("real_nccl147_ring_ipc_interleaved.log");
  EXPECT_EQ(r.nranks, 8);
  EXPECT_EQ(r.log.connections.size(), 17u);
  // "h:40515 [6] NCCL INFO h:40517 [7] NCCL INFO Ring 04 : 7[7] -> 3[3] via P2P/IPC"
  EXPECT_EQ(capture_cell(r, 7, 3).transports, Names{"P2P/IPC"});
  // rank 6's "Ring 04 : 6[6] -> 5[5] via P2P/IPC" landed on a line of its own
  EXPECT_EQ(channels_of(r, 6, 5), 2);
  EXPECT_EQ(r.channels.at({1, 2}).size(), 2u);  // channel 5 (a line of its own) and 6
  EXPECT_EQ(r.channels.at({0, 4}).at(5), Vias{"P2P/IPC"});
  EXPECT_EQ(r.log.connections.front().conn_index, -1);
  EXPECT_EQ(r.log.unreadable_lines, 1);  // the last line, cut after "2[2] ->"
  EXPECT_EQ(r.log.nccl_lines, 18);
}

TEST(RealNcclLogs, Nccl24RingLinesWithoutBracketsAndInitWithoutBusId) {
  const auto r = capture("real_nccl226_ring_socket_no_busid.log");
  EXPECT_EQ(r.nranks, 64);
  EXPECT_EQ(r.log.connections.size(), 10u);
  EXPECT_EQ(capture_cell(r, 43, 42).transports, Names{"NET/Socket"});
  EXPECT_EQ(capture_cell(r, 16, 32).transports, Names{"NET/Socket"});
  EXPECT_EQ(r.channels.at({39, 38}).at(0), Vias{"NET/Socket/0"});
  EXPECT_EQ(r.log.connections.front().src_tag, "");
  EXPECT_EQ(r.log.connections.front().src_device, -1);
  // Two init lines (ranks 15 and 19); ten more ranks known from their lines' prefixes.
  ASSERT_EQ(r.log.ranks.size(), 12u);
  const LoggedRank& r15 = rank_of(r, 15);
  EXPECT_FALSE(r15.from_prefixes_only);
  EXPECT_EQ(r15.nranks, 64);
  EXPECT_EQ(r15.host, "ip-172-31-7-247");
  EXPECT_EQ(r15.bus_id, "");
  EXPECT_TRUE(rank_of(r, 19).complete);
  EXPECT_EQ(hosts_of(r).size(), 12u);
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(RealNcclLogs, Nccl25DirectSharedMemoryIsShm) {
  const auto r = capture("real_nccl300_mpirun_direct_shm.log");
  EXPECT_EQ(r.nranks, 4);
  EXPECT_EQ(capture_cell(r, 3, 0).transports, Names{"SHM"});
  EXPECT_EQ(capture_cell(r, 1, 2).transports, Names{"SHM"});
  EXPECT_EQ(r.channels.at({3, 0}).at(0), Vias{"direct shared memory"});
  EXPECT_EQ(r.log.connections.front().src_tag, "b0");
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(RealNcclLogs, Nccl25BareVersionLineBehindMpirunTags) {
  const auto r = capture("real_nccl300_mpirun_prefix_version.log");
  EXPECT_EQ(r.log.version, "2.5.6+cuda10.2");
  EXPECT_EQ(r.log.nccl_lines, 14);
  EXPECT_TRUE(r.log.connections.empty());
  EXPECT_NE(format_transport_summary(r).find("NCCL 2.5.6+cuda10.2, 0 ranks"), std::string::npos);
}

TEST(RealNcclLogs, BusIdTagsTwoMachinesOverInfiniBand) {
  const auto r = capture("real_nccl429_busid_tags_ib_gdrdma.log");
  EXPECT_EQ(r.nranks, 16);
  EXPECT_EQ(r.log.connections.size(), 14u);
  EXPECT_EQ(capture_cell(r, 11, 9).transports, Names{"P2P/direct"});
  EXPECT_EQ(channels_of(r, 11, 9), 3);
  EXPECT_EQ(channels_of(r, 13, 10), 2);
  // both ends of 7 -> 14 logged ([receive] on machine-1, [send] on machine-2): one channel
  EXPECT_EQ(capture_cell(r, 7, 14).transports, Names{"NET/IB"});
  EXPECT_EQ(r.channels.at({7, 14}).size(), 1u);
  EXPECT_EQ(r.channels.at({7, 14}).at(3), Vias{"NET/IB/0/GDRDMA"});
  EXPECT_EQ(r.log.connections.front().src_tag, "3e000");
  EXPECT_EQ(r.log.connections.front().src_device, -1);
}

TEST(RealNcclLogs, Nccl278RayPidPrefixAndPeerAccessWarning) {
  const auto r = capture("real_ray_lightning24_pid_prefix_ipc_warn.log");
  EXPECT_EQ(r.nranks, 2);
  EXPECT_EQ(r.log.rings, 2);
  EXPECT_EQ(capture_cell(r, 0, 1).transports, Names{"P2P/IPC"});
  EXPECT_EQ(r.log.connections.front().dst_tag, "2e000");
  // PyTorch quoting "NCCL version 2.7.8" in its error is not NCCL's own version line
  EXPECT_EQ(r.log.version, "");
  ASSERT_EQ(r.log.warnings.size(), 1u);
  EXPECT_EQ(r.log.warnings[0],
            "failed to open CUDA IPC handle : 217 peer access is not supported between these two "
            "devices");
  EXPECT_EQ(r.log.p2p_explanations, r.log.warnings);
}

TEST(RealNcclLogs, AzureVmP2pDisabledBetweenConnectedGpus) {
  const auto r = capture("real_nccl1214_azure_p2p_disabled.log");
  EXPECT_EQ(r.nranks, 4);
  ASSERT_EQ(r.log.ranks.size(), 1u);
  EXPECT_EQ(r.log.ranks[0].bus_id, "100000");
  EXPECT_EQ(r.log.ranks[0].host, "e2bd2729de1e4961bccb1c0d6311f3a4000001");
  EXPECT_EQ(r.log.ranks[0].pid.value_or(0), 349);
  EXPECT_FALSE(r.log.ranks[0].complete);
  ASSERT_EQ(r.log.p2p_explanations.size(), 2u);
  EXPECT_EQ(r.log.p2p_explanations[0],
            "P2P is disabled between connected GPUs 1 and 0. You can repress this message with "
            "NCCL_IGNORE_DISABLED_P2P=1.");
  EXPECT_EQ(r.log.p2p_explanations[1],
            "Could not enable P2P between dev 1(=200000) and dev 0(=100000)");
  EXPECT_TRUE(r.log.connections.empty());
}

TEST(RealNcclLogs, Nccl28IbvCreateQpFailureWithBareVersionLine) {
  const auto r = capture("real_nccl562_ibv_create_qp_bare_version.log");
  EXPECT_EQ(r.log.version, "2.8.3+cudaCUDA_MAJOR.CUDA_MINOR");
  ASSERT_EQ(r.log.warnings.size(), 3u);
  for (const auto& w : r.log.warnings) EXPECT_EQ(w, "Call to ibv_create_qp failed");
  EXPECT_TRUE(r.log.p2p_explanations.empty());
  EXPECT_EQ(r.log.unreadable_lines, 0);
  EXPECT_NE(format_transport_summary(r).find("NCCL WARN lines:"), std::string::npos);
}

TEST(RealNcclLogs, H20TwoNodesCuMemInsideInfiniBandBetweenAndACutLastLine) {
  const auto r = capture("real_nccl1189_h20_2node_cumem_ib.log");
  EXPECT_EQ(r.nranks, 4);
  ASSERT_EQ(r.log.ranks.size(), 4u);
  EXPECT_EQ(hosts_of(r), (std::set<std::string>{"H20-GPU-05", "H20-GPU-06"}));
  EXPECT_EQ(r.log.ranks[2].host, "H20-GPU-06");
  EXPECT_EQ(r.log.ranks[3].bus_id, "38000");
  EXPECT_EQ(r.log.connections.size(), 14u);  // the "Ring 02 : 2 -> 0 -> 1" lines are not
  EXPECT_EQ(capture_cell(r, 1, 0).transports, Names{"P2P/CUMEM"});
  EXPECT_EQ(channels_of(r, 1, 0), 4);
  EXPECT_EQ(capture_cell(r, 1, 3).transports, Names{"NET/IB"});
  EXPECT_EQ(r.channels.at({3, 1}).at(7), Vias{"NET/IB/2/GDRDMA"});
  EXPECT_EQ(r.channels.at({0, 2}).at(7), Vias{"NET/IB/3/GDRDMA"});
  EXPECT_EQ(r.log.coll_channels, 8);
  EXPECT_EQ(r.log.nvls_channels, 0);
  EXPECT_EQ(r.log.p2p_channels_per_peer, 2);
  EXPECT_EQ(r.log.unreadable_lines, 1);  // "Channel 04/1 : 3[1] -> 0[0] [re"
}

TEST(RealNcclLogs, TimestampsOnLinesOfTheirOwnAroundCuMemRead) {
  const auto r = capture("real_aws_ofi_nccl715_timestamp_lines_cumem.log");
  EXPECT_EQ(r.nranks, 8);
  EXPECT_EQ(r.log.connections.size(), 12u);
  EXPECT_EQ(capture_cell(r, 3, 4).transports, Names{"P2P/CUMEM"});
  EXPECT_EQ(r.channels.at({3, 4}).size(), 3u);  // channels 1, 3, 4
  EXPECT_EQ(r.channels.at({5, 6}).at(0), Vias{"P2P/CUMEM/read"});
  EXPECT_TRUE(r.log.p2p_explanations.empty());
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(RealNcclLogs, Nccl222CuMemWithRingOrderOfSixteenRanks) {
  const auto r = capture("real_nccl1538_cumem_nvls_ring_order.log");
  EXPECT_EQ(r.log.rings, 16);
  EXPECT_EQ(r.log.connections.size(), 11u);
  EXPECT_EQ(capture_cell(r, 6, 7).transports, Names{"P2P/CUMEM"});
  EXPECT_EQ(channels_of(r, 6, 7), 2);  // channels 9 and 10
  EXPECT_EQ(r.channels.at({4, 5}).at(6), Vias{"P2P/CUMEM"});
}

TEST(RealNcclLogs, RayWorkerLinesJoinedOnOneLine) {
  const auto r = capture("real_vllm2442_rayworker_joined_lines.log");
  EXPECT_EQ(r.log.connections.size(), 9u);
  // channel 07 followed channel 05's padding on the same line
  EXPECT_EQ(channels_of(r, 3, 0), 6);
  EXPECT_EQ(r.channels.at({3, 0}).at(5), Vias{"P2P/IPC"});
  EXPECT_EQ(r.channels.at({3, 0}).at(7), Vias{"P2P/IPC"});
  EXPECT_EQ(channels_of(r, 3, 1), 3);
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(RealNcclLogs, CommSuffixAfterTheTransport) {
  const auto r = capture("real_ray59778_rayworkerwrapper_comm_suffix.log");
  ASSERT_EQ(r.log.connections.size(), 1u);
  EXPECT_EQ(r.log.connections[0].via, "P2P/IPC");  // not "P2P/IPC comm 0x5609976f9470 nRanks 32"
  EXPECT_EQ(r.log.connections[0].src_rank, 16);
  EXPECT_EQ(r.log.connections[0].dst_tag, "21000");
  EXPECT_EQ(capture_cell(r, 16, 18).transports, Names{"P2P/IPC"});
  EXPECT_EQ(r.log.unreadable_lines, 1);  // the first line ends after "NCCL INFO Channel"
}

TEST(RealNcclLogs, TwoProcessesOfEightGpusShmInsideSocketBetween) {
  const auto r = capture("real_nccl_tests166_shm_socket_two_processes.log");
  EXPECT_EQ(r.nranks, 16);
  EXPECT_EQ(capture_cell(r, 15, 0).transports, Names{"NET/Socket"});
  EXPECT_EQ(channels_of(r, 15, 0), 8);  // channels 14 to 21
  EXPECT_EQ(capture_cell(r, 11, 12).transports, Names{"SHM"});
  EXPECT_EQ(channels_of(r, 11, 12), 3);
  EXPECT_EQ(r.channels.at({6, 7}).at(9), Vias{"SHM/direct/direct"});
  EXPECT_NE(format_transport_summary(r).find("11 -> 12: ch 05-07 SHM/direct/direct"),
            std::string::npos);
}

TEST(RealNcclLogs, Rtx4090P2pDisabledLinesKeptOnceEach) {
  const auto r = capture("real_trtllm2225_4090_p2p_disabled.log");
  ASSERT_EQ(r.log.p2p_explanations.size(), 8u);
  EXPECT_EQ(r.log.p2p_explanations[0].rfind("P2P is disabled between connected GPUs 6 and 7.", 0),
            0u);
  EXPECT_EQ(r.log.p2p_explanations[7].rfind("P2P is disabled between connected GPUs 4 and 6.", 0),
            0u);
  EXPECT_TRUE(r.log.connections.empty());
  EXPECT_NE(format_transport_summary(r).find("Why P2P is not used"), std::string::npos);
}

TEST(RealNcclLogs, H800ShmWhereRankAndDeviceDiffer) {
  const auto r = capture("real_nccl1609_h800_shm_rank_dev_differ.log");
  EXPECT_EQ(r.nranks, 4);
  EXPECT_EQ(capture_cell(r, 2, 3).transports, Names{"SHM"});
  EXPECT_EQ(channels_of(r, 2, 3), 9);  // channels 07 to 15
  EXPECT_EQ(channels_of(r, 3, 2), 3);
  EXPECT_EQ(r.log.connections.front().src_device, 6);
  EXPECT_EQ(r.log.connections.front().dst_device, 7);
}

TEST(RealNcclLogs, PythonLoggingPrefixAndFragmentsOfCutLines) {
  const auto r = capture("real_easydistill4_python_logging_prefix.log");
  EXPECT_EQ(r.log.rings, 24);
  EXPECT_EQ(r.log.connections.size(), 9u);  // "Ring 00 : 7 -> 0 -> 1" is a ring, not a connection
  EXPECT_EQ(r.log.connections.front().conn_index, 1);
  EXPECT_EQ(r.log.connections.front().channel, 31);
  EXPECT_EQ(channels_of(r, 2, 0), 5);
  EXPECT_EQ(capture_cell(r, 7, 0).transports, Names{"P2P/IPC"});
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(RealNcclLogs, FourHostsCuMemAndIbPluginWithMergedNics) {
  const auto r = capture("real_nccl_tests311_collnet_ibext_4hosts.log");
  EXPECT_EQ(r.nranks, 8);
  EXPECT_EQ(capture_cell(r, 0, 1).transports, Names{"P2P/CUMEM"});
  EXPECT_EQ(channels_of(r, 0, 1), 3);
  EXPECT_EQ(capture_cell(r, 7, 0).transports, Names{"NET/IBext_v8"});
  EXPECT_EQ(channels_of(r, 7, 0), 2);  // channel 0 [send], channel 2 [receive]
  EXPECT_EQ(r.channels.at({3, 4}).at(0), Vias{"NET/IBext_v8/5(2)/GDRDMA"});
}

TEST(RealNcclLogs, NvlsChannelsOfA64RankRun) {
  const auto r = capture("real_nccl1814_nvls_channels_64ranks.log");
  EXPECT_EQ(r.log.nvls_channels, 16);
  EXPECT_EQ(r.log.coll_channels, 16);
  EXPECT_EQ(r.log.p2p_channels_per_peer, 1);
  EXPECT_EQ(r.nranks, 64);
  ASSERT_EQ(r.log.ranks.size(), 4u);
  EXPECT_EQ(r.log.ranks[0].rank, 32);
  EXPECT_EQ(r.log.ranks[0].bus_id, "18000");
  EXPECT_EQ(hosts_of(r).size(), 1u);
}

TEST(RealNcclLogs, Nccl28InitLinesWithoutNvmlDev) {
  const auto r = capture("real_nccl629_init_without_nvmldev.log");
  EXPECT_EQ(r.nranks, 16);
  ASSERT_EQ(r.log.ranks.size(), 8u);
  EXPECT_EQ(hosts_of(r), (std::set<std::string>{"A03-R28-I49-2-6000166", "A03-R28-I49-3-9000018"}));
  EXPECT_EQ(r.log.ranks.front().rank, 2);
  EXPECT_EQ(r.log.ranks.back().rank, 15);
  EXPECT_EQ(r.log.ranks.back().bus_id, "e7000");
  EXPECT_EQ(r.log.ranks.back().nvml_device, 7);
  EXPECT_EQ(r.log.coll_channels, 8);
  EXPECT_EQ(r.log.p2p_channels, 8);
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(RealNcclLogs, VllmOutputCuttingAnNcclTag) {
  const auto r = capture("real_vllm27521_cut_by_vllm_output.log");
  EXPECT_EQ(r.log.connections.size(), 4u);
  EXPECT_EQ(channels_of(r, 1, 2), 4);
  EXPECT_EQ(r.channels.at({1, 2}).at(6), Vias{"P2P/CUMEM/read"});
  EXPECT_EQ(r.log.unreadable_lines, 1);  // "NCCL ININFO 10-24 13:17:20 [custom_all_reduce.py:37]"
  EXPECT_EQ(r.log.nccl_lines, 5);
}

}  // namespace
}  // namespace p2p::nccl

namespace p2p::nccl {
namespace {

// Hosts came only from init lines: these logs have none, so no rank had a host although every
// line's "host:pid:tid [dev]" prefix names the process that wrote it.
TEST(RealNcclLogHosts, TwoMachinesWithoutInitLinesGetHostsFromLinePrefixes) {
  const auto r = capture("real_nccl429_busid_tags_ib_gdrdma.log");
  EXPECT_EQ(hosts_of(r), (std::set<std::string>{"machine-1", "machine-2"}));
  EXPECT_EQ(rank_of(r, 11).host, "machine-1");  // P2P lines: written by the sender
  EXPECT_EQ(rank_of(r, 13).host, "machine-1");
  EXPECT_EQ(rank_of(r, 1).host, "machine-2");
  EXPECT_EQ(rank_of(r, 5).host, "machine-2");
  EXPECT_EQ(rank_of(r, 14).host, "machine-1");  // "7 -> 14 [receive]": written by rank 14
  EXPECT_EQ(rank_of(r, 7).host, "machine-2");   // "7 -> 14 [send]": written by rank 7
  EXPECT_EQ(rank_of(r, 15).host, "machine-1");
  EXPECT_EQ(rank_of(r, 7).pid, 41626);
  EXPECT_TRUE(rank_of(r, 7).from_prefixes_only);
  EXPECT_FALSE(rank_of(r, 7).complete);
  // Rank 9 is only ever the receiving end of P2P lines, which its process did not write.
  EXPECT_TRUE(std::none_of(r.log.ranks.begin(), r.log.ranks.end(),
                           [](const LoggedRank& k) { return k.rank == 9; }));
  EXPECT_EQ(r.log.ranks.size(), 7u);
  const std::string text = format_transport_summary(r);
  EXPECT_NE(text.find("machine-2"), std::string::npos) << text;
  EXPECT_NE(text.find("no init line"), std::string::npos) << text;
}

TEST(RealNcclLogHosts, FourHostsOfTheCollNetLogAndTheirDevices) {
  const auto r = capture("real_nccl_tests311_collnet_ibext_4hosts.log");
  EXPECT_EQ(rank_of(r, 6).host, "gpu41");  // "5[1] -> 6[0] [receive]" on gpu41
  EXPECT_EQ(rank_of(r, 6).cuda_device, 0);
  EXPECT_EQ(rank_of(r, 0).host, "gpu34");  // "7[1] -> 0[0] [receive]" and "0[0] -> 1[1]" agree
  EXPECT_GE(hosts_of(r).size(), 3u);
}

// Init lines stay authoritative: a rank's init line (here in another file) wins over the
// prefixes of its connection lines.
TEST(RealNcclLogHosts, AnInitLineInAnotherFileWinsOverPrefixes) {
  const std::string init =
      "nodeA:7:9 [3] NCCL INFO comm 0x1 rank 11 nranks 16 cudaDev 3 busId 3e000 - Init COMPLETE\n";
  const auto r = summarize_transports(
      {{"connections.log", fixture_text("real_nccl429_busid_tags_ib_gdrdma.log")},
       {"init.log", init}});
  EXPECT_EQ(rank_of(r, 11).host, "nodeA");
  EXPECT_FALSE(rank_of(r, 11).from_prefixes_only);
  EXPECT_TRUE(rank_of(r, 11).complete);
  EXPECT_EQ(rank_of(r, 11).bus_id, "3e000");
  EXPECT_EQ(rank_of(r, 13).host, "machine-1");
}

// NCCL 2.5's "[80]" is the bus id 0000:00:08.0 (a VM's GPUs sit on bus 00), not device 80.
TEST(RealNcclLogBrackets, TwoDigitBusIdsOfNccl25AreNotDevices) {
  const auto r = capture("real_nccl300_mpirun_direct_shm.log");
  EXPECT_EQ(r.log.bracket_tags, "bus_id");
  const LoggedConnection& c = r.log.connections.front();  // "3[b0] -> 0[80]"
  EXPECT_EQ(c.dst_tag, "80");
  EXPECT_EQ(c.dst_device, -1);
  EXPECT_EQ(c.dst_bus_id, "80");
  EXPECT_EQ(c.src_bus_id, "b0");
  EXPECT_EQ(rank_of(r, 3).host, "73e9f9f45158");
}

TEST(RealNcclLogBrackets, EachReleaseFamilyReadsAsItPrinted) {
  const auto early = capture("real_nccl147_ring_ipc_interleaved.log");  // 2.3: cudaDev
  EXPECT_EQ(early.log.bracket_tags, "device");
  EXPECT_EQ(early.log.connections.front().src_device, 3);
  EXPECT_EQ(early.log.connections.front().src_bus_id, "");
  const auto bus = capture("real_nccl429_busid_tags_ib_gdrdma.log");
  EXPECT_EQ(bus.log.bracket_tags, "bus_id");
  EXPECT_EQ(bus.log.connections.front().src_bus_id, "3e000");
  const auto recent = capture("real_nccl1609_h800_shm_rank_dev_differ.log");
  EXPECT_EQ(recent.log.bracket_tags, "device");
  const auto none = capture("real_nccl226_ring_socket_no_busid.log");
  EXPECT_EQ(none.log.bracket_tags, "");
}

// The logged version decides where the tags alone cannot: 2.5 to 2.18.2 print bus ids, even
// "10" and "20"; 2.18.1's P2P/CUMEM lines print the CUDA device in hex.
TEST(RealNcclLogBrackets, TheLoggedVersionDecidesAndCuMemLinesAreDevices) {
  const std::string p = "h:1:2 [0] NCCL INFO ";
  const NcclLog old = parse_nccl_log(p + "NCCL version 2.7.8+cuda11.0\n" + p +
                                     "Channel 00 : 0[10] -> 1[20] via P2P/IPC\n");
  EXPECT_EQ(old.bracket_tags, "bus_id");
  EXPECT_EQ(old.connections[0].src_device, -1);
  EXPECT_EQ(old.connections[0].dst_bus_id, "20");
  const NcclLog newer = parse_nccl_log(p + "NCCL version 2.19.3+cuda12.3\n" + p +
                                       "Channel 00/0 : 0[10] -> 1[20] via P2P/IPC\n");
  EXPECT_EQ(newer.bracket_tags, "device");
  EXPECT_EQ(newer.connections[0].dst_device, 20);
  const NcclLog cumem = parse_nccl_log(p + "NCCL version 2.18.1+cuda12.1\n" + p +
                                       "Channel 00/0 : 0[1a000] -> 1[1b000] via P2P/IPC\n" + p +
                                       "Channel 00/0 : 2[a] -> 3[b] via P2P/CUMEM\n");
  EXPECT_EQ(cumem.connections[0].src_bus_id, "1a000");
  EXPECT_EQ(cumem.connections[1].src_device, 10);
  EXPECT_EQ(cumem.connections[1].dst_device, 11);
}

}  // namespace
}  // namespace p2p::nccl
