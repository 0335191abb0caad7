// The default plan on the real 8-GPU topology of the LXC container (NODE within a socket, SYS
// across): one swept route per kind of path, every other route at the largest size.
#include "bench/measure/sweep_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "bench/sizes.hpp"
#include "common/file_io.hpp"
#include "topology/snapshot_json.hpp"

namespace {

using namespace p2p::bench;

BenchContext rtx_lxc_host() {
  BenchContext ctx;
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/rtxpro6000-lxc.json";
  ctx.topology = p2p::topo::snapshot_from_json(p2p::read_json_file(path), path);
  for (std::size_t i = 0; i < ctx.topology.gpus.size(); ++i) {
    DeviceInfo d;
    d.ordinal = static_cast<int>(i);
    d.pci_bus_id = ctx.topology.gpus[i].pci_bus_id;
    ctx.inventory.devices.push_back(d);
    ctx.gpus.push_back(static_cast<int>(i));
  }
  return ctx;
}

const std::vector<std::uint64_t> kSizes = {4096, 1 << 20, 1 << 30};

std::size_t swept(const std::vector<std::vector<std::uint64_t>>& plan) {
  std::size_t n = 0;
  for (const auto& s : plan) n += s.size() > 1;
  return n;
}

TEST(SweepPlan, OneSweptPairPerTopologyClass) {
  const BenchContext ctx = rtx_lxc_host();
  const auto routes = routes_for(RouteShape::kOrderedPair, ctx.gpus);
  ASSERT_EQ(routes.size(), 56u);
  EXPECT_EQ(route_kind(ctx, routes[0]), "NODE");  // gpu0 -> gpu1, one socket
  EXPECT_EQ(route_kind(ctx, routes[3]), "SYS");   // gpu0 -> gpu4, across sockets
  const auto plan = plan_route_sizes(ctx, routes, kSizes, false);
  ASSERT_EQ(plan.size(), 56u);
  EXPECT_EQ(swept(plan), 2u);
  EXPECT_EQ(plan[0], kSizes);
  EXPECT_EQ(plan[3], kSizes);
  EXPECT_EQ(plan[1], std::vector<std::uint64_t>{1 << 30});  // every route still has the matrix size
  for (const auto& sizes : plan) EXPECT_EQ(sizes.back(), 1u << 30);
  EXPECT_EQ(swept(plan_route_sizes(ctx, routes, kSizes, true)), 56u);
}

TEST(SweepPlan, HostLinksSweptOncePerNumaNodeAndContentionOncePerPattern) {
  const BenchContext ctx = rtx_lxc_host();
  const auto h2d = routes_for(RouteShape::kHostToGpu, ctx.gpus);
  EXPECT_EQ(route_kind(ctx, h2d[0]), "numa0");
  EXPECT_EQ(route_kind(ctx, h2d[7]), "numa1");
  EXPECT_EQ(swept(plan_route_sizes(ctx, h2d, kSizes, false)), 2u);
  EXPECT_EQ(
      swept(plan_route_sizes(ctx, routes_for(RouteShape::kAllToOne, ctx.gpus), kSizes, false)), 1u);
  EXPECT_EQ(swept(plan_route_sizes(ctx, routes_for(RouteShape::kRing, ctx.gpus), kSizes, false)),
            1u);
}

TEST(SweepPlan, LogicalGpusOfOneDeviceAreOneKind) {
  BenchContext ctx = rtx_lxc_host();
  ctx.placement = place_logical_gpus(8, {0});
  ctx.gpus = gpu_ids(ctx.placement, {0});
  const auto pairs = routes_for(RouteShape::kUnorderedPair, ctx.gpus);
  EXPECT_EQ(route_kind(ctx, pairs[0]), "same device");
  EXPECT_EQ(swept(plan_route_sizes(ctx, pairs, kSizes, false)), 1u);
}

std::vector<std::vector<Lane>> lanes_of(const Case& c, const std::vector<Route>& routes) {
  std::vector<std::vector<Lane>> out;
  for (const Route& r : routes) out.push_back(c.lanes(r));
  return out;
}

std::size_t count(const std::vector<bool>& v) {
  return static_cast<std::size_t>(std::count(v.begin(), v.end(), true));
}

const Case& case_named(const std::string& name) {
  for (const Case& c : all_cases()) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no case " + name);
}

// 8 logical GPUs on one device: the host link is one link, measured once; the copies between
// the GPUs' own memories are all measured, so every per-pair path still runs.
TEST(SweepPlan, RoutesThroughHostMemoryOfLogicalGpusOnOneDeviceAreMeasuredOnce) {
  BenchContext ctx = rtx_lxc_host();
  ctx.placement = place_logical_gpus(8, {0});
  ctx.gpus = gpu_ids(ctx.placement, {0});
  for (const char* name : {"h2d_ce", "d2h_ce", "h2d_sm", "d2h_sm", "h2d_d2h_ce", "h2d_d2h_sm",
                           "staged", "latency_host"}) {
    const Case& c = case_named(name);
    const auto routes = routes_for(c.shape, ctx.gpus);
    const auto measure = routes_to_measure(ctx, lanes_of(c, routes), false);
    EXPECT_EQ(count(measure), 1u) << name;
    EXPECT_TRUE(measure.at(0)) << name;  // the first logical GPU's route
    EXPECT_EQ(count(routes_to_measure(ctx, lanes_of(c, routes), true)), routes.size())
        << name << " --full";
  }
  for (const char* name : {"ce_unidir_write", "sm_read", "ce_bidir", "contention_ring",
                           "latency_peer", "device_local_ce"}) {
    const Case& c = case_named(name);
    const auto routes = routes_for(c.shape, ctx.gpus);
    EXPECT_EQ(count(routes_to_measure(ctx, lanes_of(c, routes), false)), routes.size()) << name;
  }
  EXPECT_NE(repeated_host_routes_note(ctx, false), "");
  EXPECT_EQ(repeated_host_routes_note(ctx, true), "");
}

// 8 logical GPUs on 2 devices: one host route per device, one staged route per ordered pair of
// devices (0->0, 0->1, 1->0, 1->1).
TEST(SweepPlan, LogicalGpusOnTwoDevicesMeasureEachDevicesHostLinkOnce) {
  BenchContext ctx = rtx_lxc_host();
  ctx.placement = place_logical_gpus(8, {0, 1});
  ctx.gpus = gpu_ids(ctx.placement, {0, 1});
  const Case& h2d = case_named("h2d_ce");
  EXPECT_EQ(count(routes_to_measure(ctx, lanes_of(h2d, routes_for(h2d.shape, ctx.gpus)), false)),
            2u);
  const Case& staged = case_named("staged");
  EXPECT_EQ(
      count(routes_to_measure(ctx, lanes_of(staged, routes_for(staged.shape, ctx.gpus)), false)),
      4u);
}

// Physical GPUs never share a link to the host: every route is measured.
TEST(SweepPlan, EveryRouteOfPhysicalGpusIsMeasured) {
  const BenchContext ctx = rtx_lxc_host();
  for (const Case& c : all_cases()) {
    const auto routes = routes_for(c.shape, ctx.gpus);
    EXPECT_EQ(count(routes_to_measure(ctx, lanes_of(c, routes), false)), routes.size()) << c.name;
  }
  EXPECT_EQ(repeated_host_routes_note(ctx, false), "");
}

// 417 bandwidth routes on 8 GPUs: 5 one-way pair cases x 56, 2 bidirectional x 28, 8 host and
// within-GPU cases x 8 GPUs, 17 contention routes. Full: each at the 10 default sizes. Default:
// 2 kinds of pair (NODE, SYS) and 2 NUMA nodes swept, one route per contention pattern.
TEST(SweepPlan, DefaultEightGpuRunIsSevenHundredFiguresNotFourThousand) {
  const BenchContext ctx = rtx_lxc_host();
  const auto sweep = default_sweep_bytes();
  ASSERT_EQ(sweep.size(), 10u);
  std::size_t planned = 0, full = 0;
  for (const Case& c : all_cases()) {
    if (c.metric != Metric::kBandwidth) continue;
    const auto routes = routes_for(c.shape, ctx.gpus);
    for (const auto& s : plan_route_sizes(ctx, routes, sweep, false)) planned += s.size();
    for (const auto& s : plan_route_sizes(ctx, routes, sweep, true)) full += s.size();
  }
  EXPECT_EQ(full, 417u * 10);
  EXPECT_EQ(planned,
            5u * (2 * 10 + 54) + 2u * (2 * 10 + 26) + 8u * (2 * 10 + 6) + 10u + 2u * (10 + 7));
  EXPECT_EQ(planned, 714u);
}

}  // namespace
