// Which groups an infer run measures and on which CUDA devices each rank runs: the topology's
// GPUs matched to CUDA ordinals by PCI bus id (CUDA may number them otherwise, and may not see
// them all), and logical groups placed round-robin on the devices.
#include "infer/targets.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "infer/model_config.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::infer {
namespace {

InferPlan plan_for(std::vector<int> tp) {
  return make_plan(model_shape_from_options(1024, 4, "bf16"), std::move(tp), {1}, {});
}

TEST(InferTargets, HostGroupsRunOnTheOrdinalsCudaGaveTheirGpus) {
  const auto t = topo::load_topology(std::string(P2P_SOURCE_DIR) +
                                     "/topology/tests/fixtures/rtxpro6000-lxc.xml");
  ASSERT_EQ(t.gpus.size(), 8u);
  // CUDA numbers the GPUs in reverse, and the run may use only four of them.
  std::vector<std::string> bus_ids;
  for (auto it = t.gpus.rbegin(); it != t.gpus.rend(); ++it) bus_ids.push_back(it->pci_bus_id);
  const HostTargets h = host_targets(plan_for({2, 4}), t, {7, 6, 5, 4}, bus_ids, 4);
  EXPECT_EQ(h.usable, 4);
  ASSERT_FALSE(h.targets.empty());
  for (const Target& target : h.targets) {
    SCOPED_TRACE(target.result.signature);
    ASSERT_EQ(target.devices.size(), static_cast<std::size_t>(target.result.tp));
    EXPECT_EQ(target.result.gpus, target.devices);
    EXPECT_EQ(target.host_ids, std::vector<std::string>(target.devices.size()));
    for (std::size_t r = 0; r < target.devices.size(); ++r) {
      const int ordinal = target.devices[r];
      EXPECT_TRUE(ordinal >= 4 && ordinal <= 7) << ordinal;
      EXPECT_EQ(target.result.pci_bus_ids[r], bus_ids[static_cast<std::size_t>(ordinal)]);
    }
  }
  // Ordinals 7..4 are the topology's GPUs 0..3, one socket: one group per TP size.
  ASSERT_EQ(h.targets.size(), 2u);
  EXPECT_EQ(h.targets[1].result.signature, "NODE x6");
}

TEST(InferTargets, AGpuCudaDoesNotSeeIsNotGrouped) {
  const auto t = topo::load_topology(std::string(P2P_SOURCE_DIR) +
                                     "/topology/tests/fixtures/rtxpro6000-lxc.xml");
  const std::vector<std::string> bus_ids = {t.gpus[0].pci_bus_id};  // CUDA shows one GPU
  const HostTargets h = host_targets(plan_for({2}), t, {0}, bus_ids, 4);
  EXPECT_EQ(h.usable, 1);
  EXPECT_TRUE(h.targets.empty());
}

TEST(InferTargets, LogicalGroupsShareTheDevicesEachRankItsOwnNcclHost) {
  const std::vector<std::string> bus_ids = {"0000:41:00.0"};
  const std::vector<Target> targets = logical_targets(plan_for({2, 4, 8}), 4, {0}, bus_ids);
  ASSERT_EQ(targets.size(), 2u);  // TP=8 needs more than 4 logical GPUs
  const Target& tp4 = targets[1];
  EXPECT_EQ(tp4.result.tp, 4);
  EXPECT_EQ(tp4.result.gpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(tp4.devices, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(tp4.result.pci_bus_ids, std::vector<std::string>(4, "0000:41:00.0"));
  // Ranks on one device never share a host id: NCCL refuses two ranks of one host on one GPU.
  std::vector<std::string> ids = tp4.host_ids;
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
}

}  // namespace
}  // namespace p2p::infer
