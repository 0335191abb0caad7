#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "document/nccl_cluster.hpp"
#include "document/nccl_run.hpp"
#include "nccl/transport_log.hpp"
#include "report/nccl_cluster_text.hpp"

namespace p2p::nccl {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(HostTransportMatrix, FoldsRanksIntoHostsFromARealTwoNodeLog) {
  // net_2node.log: ranks 0,1 on gpu-a and 2,3 on gpu-b.
  const doc::TransportMatrix ranks = transport_matrix(parse_nccl_log(fixture("net_2node.log")), 4);
  const auto hosts = doc::host_transport_matrix(ranks, {0, 0, 1, 1}, 2);
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0][0].transports, (std::vector<std::string>{"P2P/CUMEM"}));
  EXPECT_EQ(hosts[1][1].transports, (std::vector<std::string>{"P2P/CUMEM"}));
  EXPECT_EQ(hosts[0][1].transports, (std::vector<std::string>{"NET/IB"}));
  EXPECT_EQ(hosts[1][0].transports, (std::vector<std::string>{"NET/Socket"}));
  EXPECT_GE(hosts[0][1].channels, 2);
}

TEST(HostTransportMatrix, RanksBeyondTheMappingAreIgnored) {
  doc::TransportMatrix m;
  m.nranks = 3;
  m.pairs[{0, 2}].transports = {"NET/IB"};
  m.pairs[{0, 1}].transports = {"SHM"};
  m.pairs[{0, 1}].channels = 4;
  const auto hosts = doc::host_transport_matrix(m, {0, 1}, 2);
  EXPECT_EQ(hosts[0][1].transports, (std::vector<std::string>{"SHM"}));
  EXPECT_EQ(hosts[0][1].channels, 4);
}

doc::NcclCluster two_hosts() {
  doc::NcclCluster c;
  c.launch = "OMPI_COMM_WORLD_SIZE=2";
  c.processes = 2;
  c.hosts = {"node-a", "node-b"};
  c.ranks = {{0, 0, 0, "node-a"}, {1, 1, 1, "node-b"}};
  c.host_transport.assign(2, std::vector<doc::TransportCell>(2));
  c.host_transport[0][1].transports = {"NET/IB"};
  c.host_transport[1][0].transports = {"SHM"};  // as if both were one machine
  doc::HostPairResult p;
  p.src_host = 0;
  p.dst_host = 1;
  p.dst_rank = 1;
  p.size_bytes = 1 << 26;
  p.time_us = 1000.0;
  p.algbw_gbps = 67.1;
  p.wrong_elements = 0;
  c.host_pairs = {p};
  return c;
}

TEST(NcclCluster, RoundTripsAndIsKeptInTheRun) {
  doc::NcclRun run;
  run.cluster = two_hosts();
  const doc::NcclRun back = nlohmann::json(run).get<doc::NcclRun>();
  ASSERT_TRUE(back.cluster.has_value());
  EXPECT_EQ(back.cluster->hosts, run.cluster->hosts);
  EXPECT_EQ(back.cluster->ranks[1].hostname, "node-b");
  EXPECT_EQ(back.cluster->host_transport[0][1].transports, (std::vector<std::string>{"NET/IB"}));
  ASSERT_EQ(back.cluster->host_pairs.size(), 1u);
  EXPECT_EQ(back.cluster->host_pairs[0].algbw_gbps, 67.1);
  // A one-host run has no cluster section, and older documents none either.
  nlohmann::json one = doc::NcclRun{};
  EXPECT_FALSE(one.contains("cluster"));
  EXPECT_FALSE(one.get<doc::NcclRun>().cluster.has_value());
}

TEST(NcclCluster, RaggedMatrixOrUnknownHostIsRefused) {
  nlohmann::json j = two_hosts();
  j["host_transport"][1].erase(1);
  EXPECT_THROW(j.get<doc::NcclCluster>(), InputError);
  j = two_hosts();
  j["ranks"][0]["host"] = 5;
  EXPECT_THROW(j.get<doc::NcclCluster>(), InputError);
  j = two_hosts();
  j["host_pairs"][0]["dst_host"] = 2;
  EXPECT_THROW(j.get<doc::NcclCluster>(), InputError);
}

TEST(NcclCluster, APairWithoutNetworkIsNamedAndTheTableShowsBoth) {
  const doc::NcclCluster c = two_hosts();
  EXPECT_EQ(doc::host_pairs_without_network(c), (std::vector<std::pair<int, int>>{{1, 0}}));
  doc::NcclRun run;
  run.cluster = c;
  const std::string text = report::format_cluster(run);
  EXPECT_NE(text.find("host0 = node-a: ranks 0"), std::string::npos) << text;
  EXPECT_NE(text.find("NET/IB"), std::string::npos) << text;
  EXPECT_NE(text.find("host1 -> host0: no NET transport"), std::string::npos) << text;
  EXPECT_NE(text.find("67.10"), std::string::npos) << text;
  EXPECT_EQ(report::format_cluster(doc::NcclRun{}), "");
}

}  // namespace
}  // namespace p2p::nccl
