#include "bench/measure/records.hpp"

#include <gtest/gtest.h>

namespace {

using namespace p2p::bench;
namespace doc = p2p::doc;

constexpr std::uint64_t kGiB = 1ull << 30;

// n GPUs on PCIe with the given generations (x16), bus ids 0000:0<i>:00.0.
BenchContext pcie_host(std::vector<int> gens, bool p2p = true) {
  BenchContext ctx;
  const std::size_t n = gens.size();
  for (std::size_t i = 0; i < n; ++i) {
    DeviceInfo d;
    d.ordinal = static_cast<int>(i);
    d.pci_bus_id = "0000:0" + std::to_string(i) + ":00.0";
    d.cc_major = 9;
    ctx.inventory.devices.push_back(d);
    p2p::topo::Gpu g;
    g.pci_bus_id = d.pci_bus_id;
    g.link_current = {gens[i], 16};
    ctx.topology.gpus.push_back(g);
    ctx.gpus.push_back(static_cast<int>(i));
  }
  ctx.inventory.can_access_peer.assign(n, std::vector<bool>(n, p2p));
  ctx.topology.nvlink_count.assign(n, std::vector<int>(n, 0));
  return ctx;
}

const Case& find(const char* name) {
  for (const auto& c : all_cases())
    if (c.name == name) return c;
  throw std::runtime_error(std::string("no case ") + name);
}

TEST(Ceilings, HostLinkPairMinimumNvlinkAndNone) {
  BenchContext ctx = pcie_host({5, 4});
  const Endpoint g0 = Endpoint::on_gpu(0), g1 = Endpoint::on_gpu(1), host = Endpoint::host();
  const Ceiling h = lane_ceiling(ctx, {host, g0, 0, Method::kCopyEngine});
  EXPECT_NEAR(*h.gbps, 63.015, 0.001);
  EXPECT_EQ(h.link, "PCIe gen5 x16");
  const Ceiling pair = lane_ceiling(ctx, {g0, g1, 0, Method::kCopyEngine});
  EXPECT_NEAR(*pair.gbps, 31.508, 0.001);  // the narrower end
  EXPECT_EQ(pair.link, "PCIe gen4 x16");
  EXPECT_FALSE(lane_ceiling(ctx, {g0, g0, 0, Method::kSm}).gbps);  // memory-bound, no link
  EXPECT_FALSE(lane_ceiling(ctx, {g0, host, 0, Method::kPointerChase}).gbps);
  ctx.topology.nvlink_count[0][1] = ctx.topology.nvlink_count[1][0] = 18;
  const Ceiling nv = lane_ceiling(ctx, {g0, g1, 0, Method::kSm});
  EXPECT_DOUBLE_EQ(*nv.gbps, 450.0);
  EXPECT_EQ(nv.link, "NVLink4 x18");
  // Staged copies go through the host, whatever NVLink there is.
  EXPECT_NEAR(*lane_ceiling(ctx, {g0, g1, 0, Method::kStaged}).gbps, 31.508, 0.001);
}

TEST(Ceilings, UnknownLinkOrGpuMissingFromTheSnapshotHasNoCeiling) {
  BenchContext ctx = pcie_host({5});
  ctx.topology.gpus[0].link_current = {};
  ctx.topology.gpus[0].link_max = {4, 8};
  EXPECT_NEAR(*gpu_link_ceiling(ctx, 0).gbps, 15.754, 0.001);  // falls back to the maximum
  ctx.topology.gpus[0].link_max = {};
  EXPECT_FALSE(gpu_link_ceiling(ctx, 0).gbps);
  ctx.topology.gpus.clear();
  EXPECT_FALSE(gpu_link_ceiling(ctx, 0).gbps);
}

TEST(Ceilings, TotalsAreBoundedByTheSharedEnd) {
  const BenchContext ctx = pcie_host({5, 5, 5});
  const auto ring = find("contention_ring").lanes(routes_for(RouteShape::kRing, ctx.gpus).front());
  EXPECT_NEAR(*total_ceiling(ctx, ring).gbps, 3 * 63.015, 0.01);
  const auto all_to_0 =
      find("contention_all_to_one").lanes(routes_for(RouteShape::kAllToOne, ctx.gpus).front());
  EXPECT_NEAR(*total_ceiling(ctx, all_to_0).gbps, 63.015, 0.01);  // gpu0's link takes it all
  const auto both = find("h2d_d2h_ce").lanes(routes_for(RouteShape::kHostGpuBoth, {0}).front());
  EXPECT_NEAR(*total_ceiling(ctx, both).gbps, 2 * 63.015, 0.01);  // one link, both directions
}

TEST(Records, SingleLaneFigureFromBytesCopiesAndSeconds) {
  const BenchContext ctx = pcie_host({5});
  const Case& c = find("h2d_ce");
  const Route r = routes_for(c.shape, {0}).front();
  const auto lanes = c.lanes(r);
  Measured m;
  m.copies_per_sample = 4;
  m.lanes.resize(1);
  m.lanes[0].seconds = {0.08, 0.10, 0.09};
  m.lanes[0].verified_samples = 4;
  m.lanes[0].verified_by = "gpu0";
  const auto recs = bandwidth_records(c, r, lanes, kGiB, m, ctx);
  ASSERT_EQ(recs.size(), 1u);
  const doc::BandwidthResult& x = recs[0];
  EXPECT_EQ(x.part, "");
  EXPECT_EQ(x.src, "host");
  EXPECT_EQ(x.dst, "gpu0");
  EXPECT_EQ(x.dst_pci, "0000:00:00.0");
  EXPECT_EQ(x.issued_by, "gpu0");
  EXPECT_EQ(x.method, "copy_engine");
  EXPECT_STREQ(doc::to_string(x.status), "ok");
  EXPECT_FALSE(x.p2p);
  const double expect_median = 4.0 * kGiB / 0.09 / 1e9;
  EXPECT_NEAR(*x.median_gbps, expect_median, 1e-9);
  EXPECT_NEAR(*x.max_gbps, 4.0 * kGiB / 0.08 / 1e9, 1e-9);
  EXPECT_NEAR(*x.spread_pct, (4.0 * kGiB / 0.08 - 4.0 * kGiB / 0.10) / (4.0 * kGiB / 0.09) * 100,
              1e-9);
  EXPECT_NEAR(*x.achieved_pct, expect_median / 63.01538 * 100, 1e-3);
}

TEST(Records, ConcurrentLanesGiveEachDirectionAndTheTotal) {
  const BenchContext ctx = pcie_host({5, 5});
  const Case& c = find("ce_bidir");
  const Route r = routes_for(c.shape, ctx.gpus).front();
  const auto lanes = c.lanes(r);
  Measured m;
  m.copies_per_sample = 2;
  m.lanes.resize(2);
  m.lanes[0].seconds = {0.1};
  m.lanes[1].seconds = {0.2};
  m.total_seconds = {0.2};
  m.lanes[1].bad_words = 5;
  m.lanes[1].bad_samples = 1;
  m.lanes[1].verified_samples = 2;
  m.lanes[1].verified_by = "gpu0";
  const auto recs = bandwidth_records(c, r, lanes, kGiB, m, ctx);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].part, "dir");
  EXPECT_EQ(recs[0].src + recs[0].dst, "gpu0gpu1");
  EXPECT_STREQ(doc::to_string(recs[0].status), "ok");
  EXPECT_TRUE(*recs[0].p2p);
  EXPECT_NEAR(*recs[0].median_gbps, 2.0 * kGiB / 0.1 / 1e9, 1e-9);
  EXPECT_EQ(recs[1].src + recs[1].dst, "gpu1gpu0");
  EXPECT_STREQ(doc::to_string(recs[1].status), "failed");  // only the corrupted direction
  EXPECT_EQ(recs[1].bad_words, 5u);
  EXPECT_NE(recs[1].detail.find("5 bad words in 1 of 2 samples (checked by gpu0)"),
            std::string::npos)
      << recs[1].detail;
  EXPECT_EQ(recs[2].part, "sum");
  EXPECT_EQ(recs[2].issued_by, "");
  EXPECT_NEAR(*recs[2].median_gbps, 4.0 * kGiB / 0.2 / 1e9, 1e-9);  // both directions' bytes
  EXPECT_NEAR(*recs[2].ceiling_gbps, 2 * 63.015, 0.01);
  EXPECT_STREQ(doc::to_string(recs[2].status), "failed");
  EXPECT_NE(recs[2].detail.find("gpu1->gpu0"), std::string::npos);
}

TEST(Records, StagedPairWithoutP2PSaysWhy) {
  const BenchContext ctx = pcie_host({5, 5}, false);
  const Case& c = find("staged");
  const Route r = routes_for(c.shape, ctx.gpus).front();
  Measured m;
  m.copies_per_sample = 1;
  m.lanes.resize(1);
  m.lanes[0].seconds = {1.0};
  const auto recs = bandwidth_records(c, r, c.lanes(r), kGiB, m, ctx);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_STREQ(doc::to_string(recs[0].status), "ok");
  EXPECT_FALSE(*recs[0].p2p);
  EXPECT_NE(recs[0].detail.find("P2P unavailable gpu0->gpu1: cudaDeviceCanAccessPeer = 0"),
            std::string::npos)
      << recs[0].detail;
}

TEST(Records, UnmeasuredRecordsCarryStatusAndCeilingButNoFigure) {
  const BenchContext ctx = pcie_host({5, 5}, false);
  const Case& c = find("sm_bidir");
  const Route r = routes_for(c.shape, ctx.gpus).front();
  const auto recs = unmeasured_bandwidth_records(c, r, c.lanes(r), 4096, doc::FigureStatus::kWaived,
                                                 "P2P unavailable", ctx);
  ASSERT_EQ(recs.size(), 3u);
  for (const auto& x : recs) {
    EXPECT_STREQ(doc::to_string(x.status), "waived");
    EXPECT_EQ(x.detail, "P2P unavailable");
    EXPECT_FALSE(x.median_gbps);
    EXPECT_TRUE(x.ceiling_gbps);
    EXPECT_EQ(x.bytes, 4096u);
  }
  EXPECT_EQ(recs[2].part, "sum");
}

TEST(Records, LatencyStatisticsAndWalkFailures) {
  const BenchContext ctx = pcie_host({5});
  const Case& c = find("latency_host");
  const Route r = routes_for(c.shape, {0}).front();
  Measured m;
  m.lanes.resize(1);
  m.latency_ns = {1190, 1180, 1200};
  m.loads_per_sample = 50000;
  m.stride_bytes = 128;
  m.lanes[0].verified_samples = 4;
  doc::LatencyResult x = latency_record(c, r, m, ctx);
  EXPECT_EQ(x.src, "gpu0");
  EXPECT_EQ(x.dst, "host");
  EXPECT_DOUBLE_EQ(*x.median_ns, 1190);
  EXPECT_NEAR(*x.spread_pct, 20.0 / 1190 * 100, 1e-9);
  EXPECT_STREQ(doc::to_string(x.status), "ok");
  m.lanes[0].bad_samples = 1;
  x = latency_record(c, r, m, ctx);
  EXPECT_STREQ(doc::to_string(x.status), "failed");
  EXPECT_NE(x.detail.find("1 of 4"), std::string::npos);
}

}  // namespace
