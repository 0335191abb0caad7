#include "bench/measure/cases.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "document/case_names.hpp"

namespace {

using namespace p2p::bench;

const Case& find(const char* name) {
  for (const auto& c : all_cases())
    if (c.name == name) return c;
  throw std::runtime_error(std::string("no case ") + name);
}

BenchContext two_gpus(bool p2p) {
  BenchContext ctx;
  for (int i = 0; i < 2; ++i) {
    DeviceInfo d;
    d.ordinal = i;
    d.pci_bus_id = "0000:0" + std::to_string(i) + ":00.0";
    ctx.inventory.devices.push_back(d);
  }
  ctx.inventory.can_access_peer = {{false, p2p}, {p2p, false}};
  ctx.gpus = {0, 1};
  return ctx;
}

TEST(Cases, NamesAreUniqueLowerSnakeAndDescribed) {
  std::set<std::string> names;
  for (const auto& c : all_cases()) {
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate " << c.name;
    for (char ch : c.name)
      EXPECT_TRUE(std::islower(static_cast<unsigned char>(ch)) ||
                  std::isdigit(static_cast<unsigned char>(ch)) || ch == '_')
          << c.name;
    EXPECT_FALSE(c.what.empty()) << c.name;
    EXPECT_EQ(c.what.find('\n'), std::string::npos) << c.name;
    EXPECT_TRUE(c.lanes && c.waive && c.time) << c.name;
  }
  for (const char* required :
       {"ce_unidir_write", "ce_unidir_read", "ce_bidir", "sm_read", "sm_write", "sm_bidir",
        "staged", "h2d_ce", "d2h_ce", "h2d_d2h_ce", "h2d_sm", "d2h_sm", "device_local_ce",
        "latency_peer", "latency_host", "contention_ring", "contention_all_to_one",
        "contention_one_to_all"}) {
    EXPECT_TRUE(names.count(required)) << required;
  }
}

TEST(Cases, EveryDescriptionNamesTheGpuThatIssuesTheWork) {
  for (const auto& c : all_cases()) {
    EXPECT_NE(c.what.find("GPU"), std::string::npos) << c.name << ": " << c.what;
  }
}

TEST(Cases, RoutesForNGpus) {
  for (std::size_t n : {1u, 2u, 3u, 8u}) {
    std::vector<int> gpus;
    for (std::size_t i = 0; i < n; ++i) gpus.push_back(static_cast<int>(i));
    EXPECT_EQ(routes_for(RouteShape::kOrderedPair, gpus).size(), n * (n - 1));
    EXPECT_EQ(routes_for(RouteShape::kUnorderedPair, gpus).size(), n * (n - 1) / 2);
    EXPECT_EQ(routes_for(RouteShape::kHostToGpu, gpus).size(), n);
    EXPECT_EQ(routes_for(RouteShape::kGpu, gpus).size(), n);
    EXPECT_EQ(routes_for(RouteShape::kGpuLoadsHost, gpus).size(), n);
    EXPECT_EQ(routes_for(RouteShape::kRing, gpus).size(), n >= 2 ? 1u : 0u);
    EXPECT_EQ(routes_for(RouteShape::kAllToOne, gpus).size(), n >= 2 ? n : 0u);
    EXPECT_EQ(routes_for(RouteShape::kOneToAll, gpus).size(), n >= 2 ? n : 0u);
  }
}

TEST(Cases, OneGpuStillMeasuresHostDeviceLocalAndHostLatency) {
  std::set<std::string> runnable;
  for (const auto& c : all_cases())
    if (!routes_for(c.shape, {0}).empty()) runnable.insert(c.name);
  EXPECT_EQ(runnable, (std::set<std::string>{"h2d_ce", "d2h_ce", "h2d_d2h_ce", "h2d_sm", "d2h_sm",
                                             "h2d_d2h_sm", "device_local_ce", "device_local_sm",
                                             "latency_host"}));
}

TEST(Cases, WhoIssuesTheCopy) {
  const Route r01 = routes_for(RouteShape::kOrderedPair, {0, 1}).front();
  ASSERT_EQ(r01.label(), "gpu0->gpu1");
  EXPECT_EQ(find("ce_unidir_write").lanes(r01).at(0).issuer, 0);
  EXPECT_EQ(find("ce_unidir_read").lanes(r01).at(0).issuer, 1);
  EXPECT_EQ(find("sm_write").lanes(r01).at(0).issuer, 0);
  EXPECT_EQ(find("sm_read").lanes(r01).at(0).issuer, 1);
  EXPECT_EQ(find("sm_read").lanes(r01).at(0).method, Method::kSm);
  EXPECT_EQ(find("staged").lanes(r01).at(0).method, Method::kStaged);
  const auto bidir = find("ce_bidir").lanes(routes_for(RouteShape::kUnorderedPair, {0, 1}).front());
  ASSERT_EQ(bidir.size(), 2u);
  EXPECT_EQ(bidir[0].src.label() + bidir[0].dst.label(), "gpu0gpu1");
  EXPECT_EQ(bidir[1].src.label() + bidir[1].dst.label(), "gpu1gpu0");
}

TEST(Cases, ContentionLanes) {
  const std::vector<int> gpus{0, 1, 2, 3};
  const auto ring = find("contention_ring").lanes(routes_for(RouteShape::kRing, gpus).front());
  ASSERT_EQ(ring.size(), 4u);
  EXPECT_EQ(ring[3].src.gpu, 3);
  EXPECT_EQ(ring[3].dst.gpu, 0);
  const auto to2 = routes_for(RouteShape::kAllToOne, gpus).at(2);
  EXPECT_EQ(to2.label(), "all->gpu2");
  const auto in = find("contention_all_to_one").lanes(to2);
  ASSERT_EQ(in.size(), 3u);
  for (const auto& l : in) {
    EXPECT_EQ(l.dst.gpu, 2);
    EXPECT_NE(l.src.gpu, 2);
  }
  const auto out =
      find("contention_one_to_all").lanes(routes_for(RouteShape::kOneToAll, gpus).at(1));
  ASSERT_EQ(out.size(), 3u);
  for (const auto& l : out) EXPECT_EQ(l.src.gpu, 1);
}

TEST(Cases, PeerCasesAreWaivedWithTheReasonWithoutP2PButStagedIsMeasured) {
  const BenchContext no = two_gpus(false);
  const BenchContext yes = two_gpus(true);
  const Route r01 = routes_for(RouteShape::kOrderedPair, {0, 1}).front();
  for (const char* name :
       {"ce_unidir_write", "ce_unidir_read", "sm_read", "sm_write", "latency_peer"}) {
    const auto why = find(name).waive(no, r01);
    ASSERT_TRUE(why) << name;
    EXPECT_NE(why->find("cudaDeviceCanAccessPeer("), std::string::npos) << *why;
    EXPECT_NE(why->find(") = 0"), std::string::npos) << *why;
    EXPECT_FALSE(find(name).waive(yes, r01)) << name;
  }
  EXPECT_EQ(*find("sm_read").waive(no, r01),
            "P2P unavailable: cudaDeviceCanAccessPeer(gpu1, gpu0) = 0");
  EXPECT_FALSE(find("staged").waive(no, r01));
  EXPECT_FALSE(find("contention_ring").waive(no, routes_for(RouteShape::kRing, {0, 1}).front()));
}

TEST(Cases, OneWayPeerAccessWaivesOnlyTheDirectionThatNeedsIt) {
  BenchContext ctx = two_gpus(false);
  ctx.inventory.can_access_peer[0][1] = true;  // gpu0 may map gpu1, not the reverse
  const auto routes = routes_for(RouteShape::kOrderedPair, {0, 1});
  const Route& r01 = routes[0];
  EXPECT_FALSE(find("sm_write").waive(ctx, r01));  // gpu0 stores into gpu1
  EXPECT_TRUE(find("sm_read").waive(ctx, r01));    // gpu1 would load from gpu0
}

TEST(Cases, BenchmarkNames) {
  const auto h = routes_for(RouteShape::kHostToGpu, {3}).front();
  EXPECT_EQ(benchmark_name(find("h2d_ce"), h, 512ull << 20), "h2d_ce/host->gpu3/512MiB");
  const auto b = routes_for(RouteShape::kUnorderedPair, {0, 1}).front();
  EXPECT_EQ(benchmark_name(find("ce_bidir"), b, 4096), "ce_bidir/gpu0<->gpu1/4KiB");
  const auto l = routes_for(RouteShape::kGpuLoadsHost, {0}).front();
  EXPECT_EQ(benchmark_name(find("latency_host"), l, std::nullopt), "latency_host/gpu0->host");
  const auto d = routes_for(RouteShape::kGpu, {2}).front();
  EXPECT_EQ(benchmark_name(find("device_local_ce"), d, 1ull << 30), "device_local_ce/gpu2/1GiB");
}

}  // namespace

namespace {

TEST(PatternSeed, DiffersPerPairDirectionAndSample) {
  using p2p::bench::Endpoint;
  using p2p::bench::pattern_seed;
  std::set<std::uint32_t> seeds;
  const std::vector<Endpoint> ends{Endpoint::host(), Endpoint::on_gpu(0), Endpoint::on_gpu(1),
                                   Endpoint::on_gpu(7)};
  int n = 0;
  for (const auto& a : ends)
    for (const auto& b : ends)
      for (std::uint32_t s = 0; s < 16; ++s, ++n) seeds.insert(pattern_seed(a, b, s));
  EXPECT_EQ(seeds.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(pattern_seed(Endpoint::on_gpu(0), Endpoint::on_gpu(1), 3),
            pattern_seed(Endpoint::on_gpu(0), Endpoint::on_gpu(1), 3));
}

// Policies are checked against document/case_names.hpp (a floor naming another case is refused),
// so that list must be bench's cases exactly.
TEST(Cases, TheDocumentsListOfCaseNamesIsBenchsTable) {
  std::vector<std::string> table;
  for (const auto& c : all_cases()) table.push_back(c.name);
  EXPECT_EQ(table, p2p::doc::bench_case_names());
}

}  // namespace
