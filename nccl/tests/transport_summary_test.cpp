// `nccl transports`: NCCL INFO logs of any run, one file or one per rank, old and new wording.
#include "nccl/transport_summary.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/testing/windows_file.hpp"

namespace p2p::nccl {
namespace {

std::pair<std::string, std::string> log_file(const std::string& name) {
  return {name, read_text_file(std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures/" + name)};
}

TransportSummary summary_of(std::initializer_list<const char*> names) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* n : names) files.push_back(log_file(n));
  return summarize_transports(files);
}

const doc::TransportCell& cell(const TransportSummary& r, int s, int d) {
  return r.matrix.cell(s, d);
}

TEST(TransportSummary, RealH200LogHasOneRankAndNoConnection) {
  const auto r = summary_of({"h200_vm_single_rank.log"});
  EXPECT_EQ(r.log.version, "2.28.3+cuda13.0");
  EXPECT_EQ(r.nranks, 1);
  ASSERT_EQ(r.log.ranks.size(), 1u);
  EXPECT_EQ(r.log.ranks[0].host, "vm");
  EXPECT_EQ(r.log.ranks[0].bus_id, "60");
  EXPECT_EQ(r.log.unreadable_lines, 0);
  EXPECT_NE(format_transport_summary(r).find("NCCL logged no connection"), std::string::npos);
}

TEST(TransportSummary, OneFilePerRankMergesRanksAndHosts) {
  const auto r = summary_of({"rank_process_1gpu_rank0.log", "rank_process_1gpu_rank1.log",
                             "rank_process_1gpu_rank2.log"});
  EXPECT_EQ(r.files.size(), 3u);
  EXPECT_EQ(r.nranks, 3);
  ASSERT_EQ(r.log.ranks.size(), 3u);
  EXPECT_EQ(r.log.ranks[2].rank, 2);
  EXPECT_FALSE(cell(r, 0, 1).transports.empty());
  EXPECT_EQ(cell(r, 0, 1).transports.front(), "NET/Socket");
}

TEST(TransportSummary, PerChannelCuMemReadAcrossProcesses) {
  const auto r = summary_of({"cumem_4gpu_multiprocess.log"});
  EXPECT_EQ(r.nranks, 4);
  EXPECT_EQ(cell(r, 0, 1).transports, std::vector<std::string>{"P2P/CUMEM"});
  const auto& ch = r.channels.at({0, 1});
  EXPECT_EQ(ch.at(0), std::set<std::string>{"P2P/CUMEM/read"});
  EXPECT_EQ(r.log.ranks[3].host, "node7");
  EXPECT_EQ(r.log.ranks[3].pid.value_or(0), 9103);
  EXPECT_NE(format_transport_summary(r).find("0 -> 1: ch 00"), std::string::npos)
      << format_transport_summary(r);
}

TEST(TransportSummary, Nccl211WordingWithBusIdsInBracketsAndNoNvmlDev) {
  const auto r = summary_of({"nccl211_ipc_busid_tags.log"});
  EXPECT_EQ(r.log.version, "2.11.4+cuda11.4");
  EXPECT_EQ(r.nranks, 2);
  ASSERT_EQ(r.log.connections.size(), 4u);
  EXPECT_EQ(r.log.connections[0].src_tag, "1a000");
  EXPECT_EQ(r.log.connections[0].src_device, -1);  // a bus id, not a device
  EXPECT_EQ(r.log.connections[0].conn_index, -1);
  EXPECT_EQ(cell(r, 1, 0).transports, std::vector<std::string>{"P2P/IPC"});
  ASSERT_EQ(r.log.ranks.size(), 2u);
  EXPECT_EQ(r.log.ranks[1].bus_id, "1b000");
  EXPECT_EQ(r.log.ranks[1].nvml_device, 1);  // none printed: the CUDA device
  EXPECT_TRUE(r.log.ranks[1].complete);
  EXPECT_EQ(r.log.unreadable_lines, 0);
}

TEST(TransportSummary, ExplanationsOfAMissingP2pPathAreKeptOnce) {
  const auto r = summary_of({"nccl218_p2p_disabled_shm.log"});
  EXPECT_EQ(cell(r, 0, 1).transports, std::vector<std::string>{"SHM"});
  ASSERT_EQ(r.log.p2p_explanations.size(), 2u);
  EXPECT_EQ(r.log.p2p_explanations[0].rfind("P2P is disabled between connected GPUs 1 and 0", 0),
            0u);
  EXPECT_EQ(r.log.p2p_explanations[1],
            "Could not enable P2P between dev 0(=1000) and dev 1(=2000)");
  const std::string text = format_transport_summary(r);
  EXPECT_NE(text.find("Why P2P is not used"), std::string::npos);
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("schema"), "p2pcheck.nccl_transports");
  EXPECT_EQ(j.at("p2p_explanations").size(), 2u);
}

TEST(TransportSummary, NoPrefixNetPluginWithGdrdmaAndAnUnfinishedInit) {
  const auto r = summary_of({"nccl223_no_prefix_net_plugin.log"});
  EXPECT_EQ(r.log.version, "2.23.4+cuda12.6");
  EXPECT_EQ(cell(r, 0, 1).transports, std::vector<std::string>{"NET/IBext_v8"});
  EXPECT_EQ(r.channels.at({0, 1}).at(1), std::set<std::string>{"NET/IBext_v8/1/GDRDMA"});
  ASSERT_EQ(r.log.ranks.size(), 2u);
  EXPECT_EQ(r.log.ranks[0].host, "");
  EXPECT_TRUE(r.log.ranks[0].complete);
  EXPECT_FALSE(r.log.ranks[1].complete);
}

TEST(TransportSummary, PartlyReadableLogCountsWhatItCouldNotRead) {
  const auto r = summary_of({"partly_readable_cut.log"});
  EXPECT_EQ(r.log.unreadable_lines, 2);
  EXPECT_EQ(r.log.connections.size(), 2u);
  EXPECT_NE(format_transport_summary(r).find("2 lines could not be read"), std::string::npos);
}

TEST(TransportSummary, AFileWithoutNcclLinesIsBadInput) {
  try {
    summarize_transports({{"nvbw.txt", "nvbandwidth Version: v0.8\n"}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("nvbw.txt: not an NCCL INFO log:", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace p2p::nccl

namespace p2p::nccl {
namespace {

using p2p::testing::as_windows_file;

std::string transports_outcome(const std::string& text, const std::string& name) {
  try {
    return nlohmann::json(summarize_transports({{name, text}})).dump();
  } catch (const InputError& e) {
    return e.what();
  }
}

// Every log fixture, converted here: read as the original is (the first line's host was read
// with the mark in front of it).
TEST(WindowsLineEndsAndBom, EveryLogFixtureReadsAsTheOriginal) {
  const std::string dir = std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".log") continue;
    const std::string text = read_text_file(entry.path().string());
    EXPECT_EQ(transports_outcome(as_windows_file(text), name), transports_outcome(text, name))
        << name;
    ++files;
  }
  EXPECT_GT(files, 30);
}

}  // namespace
}  // namespace p2p::nccl
