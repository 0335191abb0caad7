#include "nccl/transport_log.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace p2p::nccl {
namespace {

NcclLog fixture(const std::string& name) {
  return parse_nccl_log(
      read_text_file(std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures/" + name));
}

const doc::TransportCell& cell(const doc::TransportMatrix& m, int s, int d) { return m.cell(s, d); }

TEST(TransportClass, FamiliesOfEveryViaText) {
  EXPECT_EQ(transport_class("P2P/direct pointer"), "P2P/direct");
  EXPECT_EQ(transport_class("P2P/direct pointer/read"), "P2P/direct");
  EXPECT_EQ(transport_class("P2P/CUMEM/read"), "P2P/CUMEM");
  EXPECT_EQ(transport_class("P2P/CUMEM/CE"), "P2P/CUMEM");
  EXPECT_EQ(transport_class("P2P/IPC/read"), "P2P/IPC");
  EXPECT_EQ(transport_class("P2P/MNNVL/read"), "P2P/MNNVL");
  EXPECT_EQ(transport_class("P2P/indirect/1[1]"), "P2P/indirect");
  EXPECT_EQ(transport_class("SHM/direct/direct"), "SHM");
  EXPECT_EQ(transport_class("SHM/CE/direct"), "SHM");
  EXPECT_EQ(transport_class("SHM/direct"), "SHM");
  EXPECT_EQ(transport_class("NET/IB/0/GDRDMA"), "NET/IB");
  EXPECT_EQ(transport_class("NET/IB/1(0)/GDRDMA"), "NET/IB");
  EXPECT_EQ(transport_class("NET/Socket/0"), "NET/Socket");
  EXPECT_EQ(transport_class("direct shared memory"), "SHM");  // releases before 2.7
  EXPECT_EQ(transport_class("CollNet/whatever"), "CollNet");
}

TEST(NcclLogParser, SingleProcessP2PDirect) {
  const NcclLog log = fixture("p2p_direct_2gpu.log");
  EXPECT_EQ(log.version, "2.28.3+cuda13.0");
  ASSERT_EQ(log.connections.size(), 12u);
  const LoggedConnection& first = log.connections.front();
  EXPECT_EQ(first.channel, 0);
  EXPECT_EQ(first.conn_index, 0);
  EXPECT_EQ(first.src_rank, 0);
  EXPECT_EQ(first.dst_rank, 1);
  EXPECT_EQ(first.dst_device, 1);
  EXPECT_EQ(first.via, "P2P/direct pointer/read");
  EXPECT_EQ(first.transport, "P2P/direct");
  EXPECT_EQ(log.rings, 4);
  EXPECT_EQ(log.coll_channels, 4);
  EXPECT_EQ(log.nvls_channels, 0);
  EXPECT_EQ(log.p2p_channels, 8);
  EXPECT_EQ(log.p2p_channels_per_peer, 4);
  ASSERT_EQ(log.ranks.size(), 2u);
  EXPECT_EQ(log.ranks[1].rank, 1);
  EXPECT_EQ(log.ranks[1].cuda_device, 1);
  EXPECT_EQ(log.ranks[1].bus_id, "2a000");
  EXPECT_FALSE(log.p2p_disabled_by_env);
  EXPECT_TRUE(log.warnings.empty());

  const doc::TransportMatrix m = transport_matrix(log, 2);
  EXPECT_EQ(cell(m, 0, 1).transports, (std::vector<std::string>{"P2P/direct"}));
  EXPECT_EQ(cell(m, 0, 1).channels, 6);  // ring channels 0-3 plus p2p channels 4-5
  EXPECT_EQ(cell(m, 1, 0).channels, 6);
  EXPECT_TRUE(cell(m, 0, 0).transports.empty());
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "P2P/direct");
  EXPECT_EQ(doc::cell_label(cell(m, 1, 1)), "-");
}

TEST(NcclLogParser, P2PDisabledFallsBackToSharedMemory) {
  const NcclLog log = fixture("shm_p2p_disabled_2gpu.log");
  EXPECT_TRUE(log.p2p_disabled_by_env);
  ASSERT_EQ(log.connections.size(), 4u);
  EXPECT_EQ(log.connections[0].conn_index, -1);  // SHM lines carry no connection index
  EXPECT_EQ(log.connections[0].via, "SHM/direct/direct");
  const doc::TransportMatrix m = transport_matrix(log, 2);
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "SHM");
  EXPECT_EQ(cell(m, 1, 0).channels, 2);
  EXPECT_EQ(m.rings, 2);
}

// graph/topo.cc and graph/xml.cc: the file set, loaded, or not opened.
TEST(NcclLogParser, TheTopologyFileNcclTookAndWhetherItReadIt) {
  NcclLog log = parse_nccl_log(
      "h:1:1 [0] NCCL INFO NCCL_TOPO_FILE set by environment to /etc/nccl/topo.xml\n"
      "h:1:1 [0] NCCL INFO Loading topology file /etc/nccl/topo.xml\n");
  EXPECT_EQ(log.topo_file, "/etc/nccl/topo.xml");
  EXPECT_TRUE(log.topo_file_loaded);
  EXPECT_EQ(log.topo_file_error, "");
  // The run's matrix carries it, so `nccl`'s own text and JSON say it (found on an H100: only
  // `nccl transports` did).
  doc::TransportMatrix m = transport_matrix(log, 1);
  EXPECT_EQ(m.topo_file_state, "loaded");
  nlohmann::json j = m;
  EXPECT_EQ(j.at("topology_file").at("path"), "/etc/nccl/topo.xml");
  EXPECT_EQ(j.get<doc::TransportMatrix>().topo_file_state, "loaded");
  log = parse_nccl_log(
      "h:1:1 [0] NCCL INFO NCCL_TOPO_FILE set by environment to /nope.xml\n"
      "h:1:1 [0] NCCL INFO Could not open XML topology file /nope.xml : No such file or "
      "directory\n");
  EXPECT_FALSE(log.topo_file_loaded);
  EXPECT_NE(log.topo_file_error.find("No such file"), std::string::npos);
  m = transport_matrix(log, 1);
  EXPECT_EQ(m.topo_file_state.rfind("NOT read (Could not open XML topology file /nope.xml", 0), 0u)
      << m.topo_file_state;
  // None set: the document is as before, without the key.
  EXPECT_FALSE(nlohmann::json(transport_matrix(parse_nccl_log(""), 1)).contains("topology_file"));
}

TEST(NcclLogParser, MultiProcessCuMemRing) {
  const doc::TransportMatrix m = transport_matrix(fixture("cumem_4gpu_multiprocess.log"), 4);
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "P2P/CUMEM");
  EXPECT_EQ(doc::cell_label(cell(m, 3, 0)), "P2P/CUMEM");
  EXPECT_EQ(doc::cell_label(cell(m, 0, 2)), "P2P/CUMEM");  // the send/recv connection
  EXPECT_EQ(doc::cell_label(cell(m, 1, 3)), "-");          // never connected
  EXPECT_EQ(m.rings, 2);
  EXPECT_EQ(m.coll_channels, 2);
  EXPECT_EQ(m.p2p_channels, 4);
}

TEST(NcclLogParser, NetworkConnectionsCountOnceFromBothEnds) {
  const NcclLog log = fixture("net_2node.log");
  const doc::TransportMatrix m = transport_matrix(log, 4);
  EXPECT_EQ(cell(m, 1, 2).transports, (std::vector<std::string>{"NET/IB"}));
  EXPECT_EQ(cell(m, 1, 2).channels, 2);  // [send] and [receive] lines name the same two channels
  EXPECT_EQ(doc::cell_label(cell(m, 3, 0)), "NET/Socket");
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "P2P/CUMEM");
  EXPECT_EQ(doc::cell_label(cell(m, 2, 3)), "P2P/CUMEM");
  EXPECT_EQ(log.connections[3].via, "NET/IB/1(0)/GDRDMA");
}

TEST(NcclLogParser, LegacyIpcIndirectTimestampsAndWarnings) {
  const NcclLog log = fixture("ipc_indirect_warn.log");
  EXPECT_EQ(log.version, "2.19.3+cuda12.3");
  ASSERT_EQ(log.ranks.size(), 3u);
  EXPECT_EQ(log.ranks[2].bus_id, "7000");
  const doc::TransportMatrix m = transport_matrix(log, 3);
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "P2P/IPC");
  EXPECT_EQ(doc::cell_label(cell(m, 1, 2)), "P2P/IPC");
  EXPECT_EQ(doc::cell_label(cell(m, 2, 0)), "P2P/indirect+SHM");  // two transports on one pair
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0], "Cuda failure 'invalid argument'");
  EXPECT_FALSE(m.rings.has_value());
}

TEST(NcclLogParser, NewerShortShmLine) {
  const doc::TransportMatrix m = transport_matrix(fixture("shm_newer_format.log"), 2);
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "SHM");
  EXPECT_EQ(doc::cell_label(cell(m, 1, 0)), "SHM");
  EXPECT_EQ(m.nccl_version, "2.29.7+cuda13.0");
}

TEST(NcclLogParser, RealOneRankLogFromTheH200Vm) {
  const NcclLog log = fixture("h200_vm_single_rank.log");
  EXPECT_EQ(log.version, "2.28.3+cuda13.0");
  EXPECT_TRUE(log.connections.empty());
  EXPECT_EQ(log.rings, 64);
  EXPECT_EQ(log.coll_channels, 64);
  EXPECT_EQ(log.p2p_channels, 64);
  EXPECT_EQ(log.p2p_channels_per_peer, 64);
  ASSERT_EQ(log.ranks.size(), 1u);
  EXPECT_EQ(log.ranks[0].bus_id, "60");
  EXPECT_EQ(log.ranks[0].nranks, 1);
  EXPECT_FALSE(log.p2p_disabled_by_env);
  EXPECT_TRUE(log.warnings.empty());
  const doc::TransportMatrix m = transport_matrix(log, 1);
  EXPECT_EQ(m.nranks, 1);
  EXPECT_TRUE(m.pairs.empty());
  EXPECT_TRUE(cell(m, 0, 0).transports.empty());
  EXPECT_FALSE(m.nccl_saw_p2p_disable);
}

TEST(NcclLogParser, RealLogShowsNcclSawP2PDisable) {
  const doc::TransportMatrix m = transport_matrix(fixture("h200_vm_single_rank_p2p_off.log"), 1);
  EXPECT_TRUE(m.nccl_saw_p2p_disable);
  EXPECT_EQ(m.rings, 64);
}

TEST(NcclLogParser, IgnoresRanksOutsideTheMatrixAndEmptyText) {
  const doc::TransportMatrix m = transport_matrix(fixture("cumem_4gpu_multiprocess.log"), 2);
  EXPECT_EQ(doc::cell_label(cell(m, 0, 1)), "P2P/CUMEM");
  EXPECT_EQ(doc::cell_label(cell(m, 1, 0)), "P2P/CUMEM");
  const NcclLog empty = parse_nccl_log("");
  EXPECT_TRUE(empty.connections.empty());
  EXPECT_TRUE(empty.version.empty());
  EXPECT_TRUE(transport_matrix(empty, 0).pairs.empty());
}

TEST(TransportMatrixJson, RoundTripsAndRejectsOtherVersions) {
  const doc::TransportMatrix m = transport_matrix(fixture("ipc_indirect_warn.log"), 3);
  const nlohmann::json j = m;
  EXPECT_TRUE(j.at("rings").is_null());
  const doc::TransportMatrix back = j.get<doc::TransportMatrix>();
  EXPECT_EQ(back.nranks, 3);
  EXPECT_EQ(doc::cell_label(back.cell(2, 0)), "P2P/indirect+SHM");
  EXPECT_EQ(back.cell(2, 0).channels, 2);
  EXPECT_EQ(back.pairs.size(), m.pairs.size());
  EXPECT_EQ(back.warnings, m.warnings);
  EXPECT_FALSE(back.rings.has_value());
  nlohmann::json other = j;
  other["version"] = 3;
  EXPECT_THROW(other.get<doc::TransportMatrix>(), InputError);
}

// The log is text from anywhere (a file NCCL_DEBUG_FILE names): a number past int range is not
// NCCL's (std::stoi threw out_of_range), and a line of tens of KiB (libstdc++'s std::regex
// overflowed its stack on one) is longer than any NCCL writes: both lines are skipped.
TEST(NcclLogParser, HugeNumbersAndOverlongLinesAreSkipped) {
  const std::string prefix = "host:1:1 [0] NCCL INFO ";
  const NcclLog log = parse_nccl_log(
      prefix + "Channel 99999999999/0 : 0[0] -> 1[1] via P2P/IPC\n" + prefix +
      "Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer" + std::string(200000, ' ') + "x\n" +
      prefix + "Channel 00/99999999999 :  0 1\n" + prefix +
      "rank 0 nranks 99999999999 cudaDev 0 nvmlDev 0 busId 1000 commId 0x1 - Init COMPLETE\n" +
      prefix + "Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM\n");
  ASSERT_EQ(log.connections.size(), 1u);
  EXPECT_EQ(log.connections[0].transport, "P2P/CUMEM");
  EXPECT_FALSE(log.rings.has_value());
  ASSERT_EQ(log.ranks.size(), 1u);  // no init line read: rank 0 only from its line's prefix
  EXPECT_TRUE(log.ranks[0].from_prefixes_only);
}

// Version 1 documents (results kept from earlier releases) wrote every cell of the square.
nlohmann::json dense_v1(const doc::TransportMatrix& m) {
  nlohmann::json j = m;
  nlohmann::json cells = nlohmann::json::array();
  for (int s = 0; s < m.nranks; ++s) {
    nlohmann::json row = nlohmann::json::array();
    for (int d = 0; d < m.nranks; ++d)
      row.push_back({{"transports", m.cell(s, d).transports}, {"channels", m.cell(s, d).channels}});
    cells.push_back(row);
  }
  j.erase("pairs");
  j["cells"] = cells;
  j["version"] = 1;
  return j;
}

TEST(TransportMatrixJson, VersionOneSquaresStillReadAndKeepOnlyConnectedPairs) {
  const doc::TransportMatrix m = transport_matrix(fixture("ipc_indirect_warn.log"), 3);
  const doc::TransportMatrix back = dense_v1(m).get<doc::TransportMatrix>();
  EXPECT_EQ(back.nranks, 3);
  EXPECT_EQ(back.pairs.size(), m.pairs.size());
  EXPECT_EQ(doc::cell_label(back.cell(2, 0)), "P2P/indirect+SHM");
}

TEST(TransportMatrixJson, PairsMustNameRanksOfTheMatrixOnce) {
  const nlohmann::json good = transport_matrix(fixture("ipc_indirect_warn.log"), 3);
  ASSERT_FALSE(good.at("pairs").empty());
  const std::function<void(nlohmann::json&)> changes[] = {
      [](nlohmann::json& j) { j["nranks"] = 1; },
      [](nlohmann::json& j) { j["pairs"][0]["src"] = 3; },
      [](nlohmann::json& j) { j["pairs"][0]["dst"] = -1; },
      [](nlohmann::json& j) { j["pairs"].push_back(j["pairs"][0]); },
      [](nlohmann::json& j) { j["pairs"] = 3; },
      [](nlohmann::json& j) { j["pairs"][0] = 3; },
      [](nlohmann::json& j) { j["nranks"] = 1e300; },
      [](nlohmann::json& j) { j["pairs"][0]["channels"] = -1; },
  };
  for (const auto& change : changes) {
    nlohmann::json j = good;
    change(j);
    EXPECT_THROW(j.get<doc::TransportMatrix>(), InputError) << j.dump();
  }
  const nlohmann::json v1 = dense_v1(good.get<doc::TransportMatrix>());
  const std::function<void(nlohmann::json&)> v1_changes[] = {
      [](nlohmann::json& j) { j["nranks"] = 4; },
      [](nlohmann::json& j) { j["cells"][1].erase(0); },
      [](nlohmann::json& j) { j["cells"] = 3; },
      [](nlohmann::json& j) { j["cells"][0][0]["channels"] = -1; },
  };
  for (const auto& change : v1_changes) {
    nlohmann::json j = v1;
    change(j);
    EXPECT_THROW(j.get<doc::TransportMatrix>(), InputError) << j.dump();
  }
}

// One line naming rank 4095 is one pair, not a 4096 x 4096 square (531 MB of text before).
TEST(TransportMatrix, ARankNamedByOneLineCostsOnePairNotASquare) {
  const NcclLog log = parse_nccl_log(
      "node7:9100:9150 [0] NCCL INFO Channel 00/0 : 4095[0] -> 0[1] via P2P/CUMEM/read\n");
  const doc::TransportMatrix m = transport_matrix(log, 4096);
  EXPECT_EQ(m.pairs.size(), 1u);
  EXPECT_EQ(doc::cell_label(m.cell(4095, 0)), "P2P/CUMEM");
  EXPECT_LT(nlohmann::json(m).dump().size(), 1024u);
}

// Rank processes on one GPU write one log each; the parent parses their concatenation. The ranks
// come from the lines themselves, so the order of the files does not matter.
TEST(NcclLogParser, ConcatenatedLogsOfRankProcessesOnOneGpuNameNetSocketForEveryPair) {
  const std::string dir = std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures/";
  std::string forward, backward;
  for (int r = 0; r < 3; ++r) {
    forward += read_text_file(dir + "rank_process_1gpu_rank" + std::to_string(r) + ".log");
    backward =
        read_text_file(dir + "rank_process_1gpu_rank" + std::to_string(r) + ".log") + backward;
  }
  for (const std::string& text : {forward, backward}) {
    const NcclLog log = parse_nccl_log(text);
    ASSERT_EQ(log.ranks.size(), 3u);
    for (const auto& r : log.ranks) {
      EXPECT_EQ(r.nranks, 3);
      EXPECT_EQ(r.cuda_device, 0);  // all three on one GPU
    }
    const doc::TransportMatrix m = transport_matrix(log, 3);
    EXPECT_EQ(m.rings, 2);
    for (int a = 0; a < 3; ++a) {
      EXPECT_TRUE(cell(m, a, a).transports.empty()) << a;
      for (int b = 0; b < 3; ++b) {
        if (a == b) continue;
        EXPECT_EQ(cell(m, a, b).transports, std::vector<std::string>{"NET/Socket"})
            << a << " -> " << b;
        // The ring (a -> a+1) on both channels; the send/recv pairs on channel 0 only.
        EXPECT_EQ(cell(m, a, b).channels, b == (a + 1) % 3 ? 2 : 1) << a << " -> " << b;
      }
    }
  }
}

// Written by hand: vLLM colours its "(VllmWorkerProcess pid=N)" prefix; the NCCL lines after it
// are modelled on https://github.com/vllm-project/vllm/issues/9329.
TEST(NcclLogParser, AnsiColouredPrefixIsNotMangling) {
  const NcclLog log = parse_nccl_log(
      "\x1b[1;36m(VllmWorkerProcess pid=4527)\x1b[0;0m 3837134f4773:4527:4527 [1] NCCL INFO "
      "Channel 00/0 : 1[1] -> 2[2] via P2P/IPC\n"
      "\x1b[1;36m(VllmWorkerProcess pid=4527)\x1b[0;0m 3837134f4773:4527:4527 [1] NCCL INFO "
      "comm 0x564a3eb123a0 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 3d000 commId 0x1 - Init "
      "COMPLETE\n");
  EXPECT_EQ(log.unreadable_lines, 0);
  ASSERT_EQ(log.connections.size(), 1u);
  EXPECT_EQ(log.connections[0].via, "P2P/IPC");
  ASSERT_EQ(log.ranks.size(), 1u);
  EXPECT_EQ(log.ranks[0].host, "3837134f4773");
}

TEST(NcclLogParser, ACutConnectionLineIsCountedButRingLinesAreNot) {
  const NcclLog log = parse_nccl_log(
      "h:1:2 [0] NCCL INFO Channel 04/1 : 3[1] -> 0[0] [re\n"
      "h:1:2 [0] NCCL INFO Channel\n"
      "h:1:2 [0] NCCL INFO Channel 00/02 :    0   1\n"
      "h:1:2 [0] NCCL INFO Ring 02 : 2 -> 0 -> 1\n"
      "h:1:2 [0] NCCL INFO Ring 00 : 7[7] -> 0[0] via P2P/IPC\n");
  EXPECT_EQ(log.unreadable_lines, 2);
  EXPECT_EQ(log.rings, 2);
  ASSERT_EQ(log.connections.size(), 1u);
  EXPECT_EQ(log.connections[0].src_rank, 7);
}

}  // namespace
}  // namespace p2p::nccl
