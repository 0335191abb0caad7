// Logical GPUs: where each one lives, and what the context then says about every pair of them.
#include "bench/placement.hpp"

#include <gtest/gtest.h>

#include "bench/measure/cases.hpp"
#include "bench/measure/context.hpp"
#include "bench/measure/records.hpp"
#include "common/error.hpp"

namespace {

using namespace p2p::bench;
namespace doc = p2p::doc;

TEST(Placement, RoundRobinOverTheSelectedDevices) {
  const GpuPlacement one = place_logical_gpus(8, {0});
  EXPECT_EQ(one.device_of, std::vector<int>(8, 0));
  const GpuPlacement two = place_logical_gpus(5, {1, 3});
  EXPECT_EQ(two.device_of, (std::vector<int>{1, 3, 1, 3, 1}));
  EXPECT_EQ(two.devices(), (std::vector<int>{1, 3}));
  EXPECT_TRUE(two.same_device(0, 2));
  EXPECT_FALSE(two.same_device(0, 1));
  EXPECT_FALSE(two.same_device(2, 2));  // a GPU is not its own peer
  EXPECT_EQ(gpu_ids(two, {1, 3}), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_THROW(two.device(5), std::out_of_range);
}

TEST(Placement, WithoutLogicalGpusEveryIdIsItsOwnDevice) {
  const GpuPlacement none;
  EXPECT_FALSE(none.logical());
  EXPECT_EQ(none.device(3), 3);
  EXPECT_FALSE(none.same_device(0, 1));
  EXPECT_EQ(gpu_ids(none, {0, 2}), (std::vector<int>{0, 2}));
  EXPECT_EQ(doc::logical_gpus_banner(0, 1), "");
}

TEST(Placement, BadCountsAreInputErrors) {
  EXPECT_THROW(place_logical_gpus(0, {0}), p2p::InputError);
  EXPECT_THROW(place_logical_gpus(2, {}), p2p::InputError);
}

TEST(Placement, BannerSaysWhatTheFiguresMeasure) {
  EXPECT_EQ(doc::logical_gpus_banner(8, 1),
            "8 logical GPUs on 1 device: figures measure the tool, not the links");
  EXPECT_EQ(doc::logical_gpus_banner(4, 2),
            "4 logical GPUs on 2 devices: figures measure the tool, not the links");
}

// Two physical devices without P2P between them, four logical GPUs on them.
BenchContext four_on_two() {
  BenchContext ctx;
  for (int i = 0; i < 2; ++i) {
    DeviceInfo d;
    d.ordinal = i;
    d.pci_bus_id = "0000:0" + std::to_string(i + 1) + ":00.0";
    ctx.inventory.devices.push_back(d);
    p2p::topo::Gpu g;
    g.pci_bus_id = d.pci_bus_id;
    g.link_current = {5, 16};
    ctx.topology.gpus.push_back(g);
  }
  ctx.inventory.can_access_peer = {{false, false}, {false, false}};
  ctx.topology.nvlink_count = {{0, 0}, {0, 0}};
  ctx.placement = place_logical_gpus(4, {0, 1});
  ctx.gpus = gpu_ids(ctx.placement, {0, 1});
  return ctx;
}

TEST(Placement, PeerAccessIsTheDevicesOrTheSameDevice) {
  const BenchContext ctx = four_on_two();
  EXPECT_TRUE(ctx.peer_access(0, 2));   // both on device 0: its own memory
  EXPECT_FALSE(ctx.peer_access(0, 1));  // device 0 -> device 1: what CUDA says (no)
  EXPECT_FALSE(ctx.peer_access(1, 1));
  EXPECT_FALSE(ctx.peer_access(0, 4));  // no such logical GPU
  ASSERT_NE(ctx.device(3), nullptr);
  EXPECT_EQ(ctx.device(3)->ordinal, 1);
  EXPECT_EQ(ctx.topology_gpu(2)->pci_bus_id, "0000:01:00.0");
}

TEST(Placement, WaiversAndCeilingsFollowTheDevices) {
  const BenchContext ctx = four_on_two();
  const Endpoint g0 = Endpoint::on_gpu(0), g1 = Endpoint::on_gpu(1), g2 = Endpoint::on_gpu(2);
  // Same device: measured, and no PCIe link bounds a copy that stays in one device's memory.
  EXPECT_FALSE(waive_without_p2p(ctx, {{g0, g2, 0, Method::kCopyEngine}}));
  const Ceiling same = lane_ceiling(ctx, {g0, g2, 0, Method::kSm});
  EXPECT_FALSE(same.gbps);
  EXPECT_EQ(same.link, "same device");
  // The staged path still crosses the device's PCIe link both ways.
  EXPECT_TRUE(lane_ceiling(ctx, {g0, g2, 0, Method::kStaged}).gbps);
  // Across devices: CUDA's answer, named by the logical GPUs of the figure.
  const auto waiver = waive_without_p2p(ctx, {{g0, g1, 0, Method::kCopyEngine}});
  ASSERT_TRUE(waiver);
  EXPECT_EQ(*waiver, "P2P unavailable: cudaDeviceCanAccessPeer(gpu0, gpu1) = 0");
  EXPECT_TRUE(lane_ceiling(ctx, {g0, g1, 0, Method::kCopyEngine}).gbps);
}

TEST(Placement, EightLogicalGpusGiveEveryOrderedPair) {
  const GpuPlacement p = place_logical_gpus(8, {0});
  const auto ids = gpu_ids(p, {0});
  EXPECT_EQ(routes_for(RouteShape::kOrderedPair, ids).size(), 56u);
  EXPECT_EQ(routes_for(RouteShape::kUnorderedPair, ids).size(), 28u);
  EXPECT_EQ(routes_for(RouteShape::kAllToOne, ids).size(), 8u);
  EXPECT_EQ(routes_for(RouteShape::kRing, ids).size(), 1u);
}

}  // namespace
