#include "report/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace p2p::report {
namespace {

bench::BandwidthResult bw(const std::string& c, const std::string& src, const std::string& dst, std::uint64_t bytes,
                          std::optional<double> gbps, const std::string& status = "ok", const std::string& detail = "") {
  bench::BandwidthResult r;
  r.case_name = c;
  r.src = src;
  r.dst = dst;
  r.bytes = bytes;
  r.median_gbps = gbps;
  r.status = status;
  r.detail = detail;
  return r;
}

const FigureChange& find(const Comparison& c, const std::string& key) {
  const auto it = std::find_if(c.figures.begin(), c.figures.end(), [&](const FigureChange& f) { return f.key == key; });
  if (it == c.figures.end()) throw std::runtime_error("no figure " + key);
  return *it;
}

constexpr std::uint64_t k512M = 512ull << 20;

TEST(Compare, DropBeyondToleranceRegressesSmallMoveIsSame) {
  bench::BenchDocument base, run;
  base.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 55.0), bw("d2h_ce", "gpu0", "host", k512M, 55.0)};
  run.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 49.5), bw("d2h_ce", "gpu0", "host", k512M, 54.0)};
  const Comparison c = compare_runs(base, run, CompareOptions{5.0, 64ull << 20});
  EXPECT_EQ(find(c, "h2d_ce host->gpu0 512MiB").verdict, "regressed");
  EXPECT_NEAR(*find(c, "h2d_ce host->gpu0 512MiB").change_pct, -10.0, 1e-9);
  EXPECT_EQ(find(c, "d2h_ce gpu0->host 512MiB").verdict, "same");
  EXPECT_EQ(c.regressions(), 1);
}

TEST(Compare, P2pWaivedInTheRunIsLostWithTheReason) {
  // The LXC baseline had P2P between gpu0 and gpu1; the VFIO VM run waives it.
  bench::BenchDocument lxc, vm;
  lxc.bandwidth = {bw("ce_unidir_write", "gpu0", "gpu1", k512M, 54.8)};
  vm.bandwidth = {bw("ce_unidir_write", "gpu0", "gpu1", k512M, std::nullopt, "waived",
                     "cudaDeviceCanAccessPeer(gpu0, gpu1) = 0")};
  const Comparison c = compare_runs(lxc, vm, CompareOptions{});
  const auto& f = find(c, "ce_unidir_write gpu0->gpu1 512MiB");
  EXPECT_EQ(f.verdict, "lost");
  EXPECT_EQ(f.run_status, "waived");
  EXPECT_EQ(c.regressions(), 1);
  EXPECT_NE(format_comparison(c, "lxc.json", "vm.json", CompareOptions{}).find("cudaDeviceCanAccessPeer(gpu0, gpu1) = 0"),
            std::string::npos);
}

TEST(Compare, SmallCopiesAreNotJudgedButStillCompared) {
  bench::BenchDocument base, run;
  base.bandwidth = {bw("h2d_ce", "host", "gpu0", 4096, 1.7)};
  run.bandwidth = {bw("h2d_ce", "host", "gpu0", 4096, 0.9)};
  const Comparison c = compare_runs(base, run, CompareOptions{5.0, 64ull << 20});
  const auto& f = find(c, "h2d_ce host->gpu0 4KiB");
  EXPECT_EQ(f.verdict, "not judged");
  ASSERT_TRUE(f.change_pct.has_value());
  EXPECT_EQ(c.regressions(), 0);
}

TEST(Compare, LatencyRegressesWhenItGrows) {
  bench::BenchDocument base, run;
  bench::LatencyResult l;
  l.case_name = "latency_host";
  l.src = "gpu0";
  l.dst = "host";
  l.median_ns = 1190;
  base.latency = {l};
  l.median_ns = 1400;
  run.latency = {l};
  const Comparison c = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(c, "latency_host gpu0->host").verdict, "regressed");
  EXPECT_EQ(find(c, "latency_host gpu0->host").unit, "ns");
  l.median_ns = 1000;
  run.latency = {l};
  EXPECT_EQ(find(compare_runs(base, run, CompareOptions{}), "latency_host gpu0->host").verdict, "improved");
}

TEST(Compare, FiguresOnOneSideOnlyAreNewOrMissing) {
  bench::BenchDocument base, run;
  base.bandwidth = {bw("sm_read", "gpu0", "gpu1", k512M, 50.0)};
  run.bandwidth = {bw("sm_write", "gpu0", "gpu1", k512M, 50.0)};
  const Comparison c = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(c, "sm_read gpu0->gpu1 512MiB").verdict, "missing");
  EXPECT_EQ(find(c, "sm_write gpu0->gpu1 512MiB").verdict, "new");
  EXPECT_EQ(c.regressions(), 0);
}

TEST(Compare, RealH200RunAgainstItselfIsUnchanged) {
  // results/h200-vm-2026-12-02/h200-bench.json is a real run on the project's H200.
  const std::string path = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto doc = bench::bench_document_from_json(nlohmann::json::parse(in), path);
  const Comparison c = compare_runs(doc, doc, CompareOptions{});
  EXPECT_EQ(c.figures.size(), doc.bandwidth.size() + doc.latency.size());
  EXPECT_EQ(c.regressions(), 0);
  for (const auto& f : c.figures) EXPECT_TRUE(f.verdict == "same" || f.verdict == "not judged") << f.key;
}

}  // namespace
}  // namespace p2p::report
