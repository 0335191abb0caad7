#include "cluster/fleet_topology.hpp"

#include <gtest/gtest.h>

#include "cluster/tests/fixtures.hpp"
#include "common/file_io.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::cluster {
namespace {

using testing::host_fixture;

std::vector<HostRun> fleet() {
  return {host_fixture("node-a.jsonl"), host_fixture("node-b.jsonl"), host_fixture("node-c.jsonl"),
          host_fixture("node-d.jsonl"), host_fixture("node-e.jsonl")};
}

topo::TopologySnapshot golden(const std::string& name) {
  const std::string path = testing::golden_topology(name);
  return topo::snapshot_from_json(read_json_file(path), path);
}

TEST(FleetTopology, TheMajorityIsTheReferenceAndTheOddHostIsNamedPairByPair) {
  const FleetTopology f = judge_fleet_topology(fleet(), std::nullopt, "");
  EXPECT_EQ(f.reference, "majority (4 of 5 hosts)");
  EXPECT_FALSE(f.ambiguous);
  ASSERT_EQ(f.hosts.size(), 5u);
  for (std::size_t i : {0u, 1u, 3u, 4u})
    EXPECT_EQ(f.hosts[i].match, doc::TopologyMatch::kSame) << i;
  EXPECT_EQ(f.hosts[2].match, doc::TopologyMatch::kDiffers);
  // rtxpro6000-lxc against rtxpro6000-vm: every one of the 28 pairs is NODE or SYS, not PHB.
  ASSERT_EQ(f.hosts[2].differences.size(), 28u);
  EXPECT_EQ(f.hosts[2].differences[0].rfind("GPU0-GPU1 ", 0), 0u) << f.hosts[2].differences[0];
  EXPECT_NE(f.hosts[2].differences[0].find("where the reference has PHB"), std::string::npos);
}

TEST(FleetTopology, AGoldenSnapshotOverrulesTheMajority) {
  const FleetTopology f = judge_fleet_topology(fleet(), golden("rtxpro6000-lxc.json"), "lxc.json");
  EXPECT_EQ(f.reference, "golden lxc.json");
  EXPECT_EQ(f.hosts[2].match, doc::TopologyMatch::kSame);
  EXPECT_EQ(f.hosts[0].match, doc::TopologyMatch::kDiffers);
  EXPECT_EQ(f.hosts[4].match, doc::TopologyMatch::kDiffers);
}

TEST(FleetTopology, ADifferentGpuCountIsOneDifference) {
  const FleetTopology f = judge_fleet_topology(fleet(), golden("hgx-nvswitch.json"), "hgx.json");
  ASSERT_EQ(f.hosts[0].differences.size(), 1u);
  EXPECT_EQ(f.hosts[0].differences[0], "8 GPUs where the reference has 4");
}

TEST(FleetTopology, ATieHasNoReferenceAndSaysSo) {
  const FleetTopology f = judge_fleet_topology(
      {host_fixture("node-a.jsonl"), host_fixture("node-c.jsonl")}, std::nullopt, "");
  EXPECT_TRUE(f.ambiguous);
  EXPECT_NE(f.reference.find("no majority (give --expect)"), std::string::npos) << f.reference;
  EXPECT_EQ(f.hosts[0].match, doc::TopologyMatch::kUnknown);
  EXPECT_EQ(f.hosts[1].match, doc::TopologyMatch::kUnknown);
}

TEST(FleetTopology, HostsWithoutATopologyDoNotVote) {
  HostRun silent;
  silent.source = "rank 3";
  const FleetTopology f =
      judge_fleet_topology({silent, host_fixture("node-c.jsonl")}, std::nullopt, "");
  EXPECT_EQ(f.reference, "majority (1 of 1 hosts)");
  EXPECT_EQ(f.hosts[0].match, doc::TopologyMatch::kUnknown);
  EXPECT_EQ(f.hosts[1].match, doc::TopologyMatch::kSame);
  EXPECT_EQ(judge_fleet_topology({silent}, std::nullopt, "").reference,
            "none: no host reported its topology");
}

}  // namespace
}  // namespace p2p::cluster
