// Two documents on one page: the H200 run beside a copy where one figure regressed and one
// lost verification; those come first, each matrix of one sits beside the other's.
#include "report/side_by_side.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace p2p::report {
namespace {

const std::string kSideBySideResults = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/";

doc::BenchDocument kept_run(const std::string& name) {
  return doc::bench_document_from_json(read_json_file(kSideBySideResults + name), name);
}

doc::BandwidthResult& figure(doc::BenchDocument& d, const std::string& c, std::uint64_t bytes) {
  for (auto& r : d.bandwidth) {
    if (r.case_name == c && r.bytes == bytes && r.part.empty()) return r;
  }
  throw std::runtime_error("no such figure");
}

TEST(SideBySide, ChangedFiguresFirstThenEachMatrixBesideTheOther) {
  const auto base = kept_run("h200-bench.json");
  auto run = base;
  run.hostname = "lxc";
  figure(run, "h2d_ce", 1ull << 30).median_gbps = 44.0;
  auto& lost = figure(run, "d2h_ce", 1ull << 30);
  lost.status = nlohmann::json("failed").get<decltype(lost.status)>();
  lost.detail = "3 bad words in sample 2";
  const std::string html = render_side_by_side(base, "vm.json", run, "lxc.json", CompareOptions{});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>p2pcheck: vm.json beside lxc.json</h1>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"l\">vm</td><td class=\"l\">lxc</td>"), std::string::npos);
  const auto changes = html.find("<h2>What changed, worst first</h2>");
  ASSERT_NE(changes, std::string::npos);
  const auto lost_row = html.find("d2h_ce gpu0-&gt;host 1GiB", changes);
  const auto regressed_row = html.find("h2d_ce host-&gt;gpu0 1GiB", changes);
  ASSERT_NE(lost_row, std::string::npos);
  ASSERT_NE(regressed_row, std::string::npos);
  EXPECT_LT(lost_row, regressed_row) << "lost before regressed";
  EXPECT_NE(html.find("3 bad words in sample 2"), std::string::npos);
  const auto maps = html.find("<h2>Matrices, first beside second</h2>");
  ASSERT_NE(maps, std::string::npos);
  EXPECT_LT(changes, maps);
  EXPECT_NE(html.find("<div class=\"beside\"><div class=\"heatmap\"><h3>h2d_ce, 1GiB copies", maps),
            std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(SideBySide, BenchBesideNcclIsBadInput) {
  EXPECT_THROW(render_side_by_side(kept_run("h200-bench.json"), "a", kept_run("h200-nccl.json"),
                                   "b", CompareOptions{}),
               InputError);
}

}  // namespace
}  // namespace p2p::report
