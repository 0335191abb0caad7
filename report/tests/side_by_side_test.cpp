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
  auto& sm = figure(run, "h2d_sm", 1ull << 30);
  sm.median_gbps = *sm.median_gbps * 0.8;
  auto& lost = figure(run, "d2h_ce", 1ull << 30);
  lost.status = nlohmann::json("failed").get<decltype(lost.status)>();
  lost.detail = "3 bad words in sample 2";
  const std::string html = render_side_by_side(base, "vm.json", run, "lxc.json", CompareOptions{});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>p2pcheck: vm.json (baseline) beside lxc.json (run)</h1>"),
            std::string::npos);
  EXPECT_NE(html.find("<th class=\"l\">baseline: vm.json</th><th class=\"l\">run: lxc.json</th>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"l\">vm</td><td class=\"l\">lxc</td>"), std::string::npos);
  EXPECT_LT(html.find("<div class=\"verdict fail\""), html.find("<h1>"))
      << "the comparison's verdict opens the page";
  const auto changes = html.find("<h2>What changed, worst first</h2>");
  ASSERT_NE(changes, std::string::npos);
  const auto lost_row = html.find("d2h_ce gpu0-&gt;host 1GiB", changes);
  const auto regressed_row = html.find("h2d_ce host-&gt;gpu0 1GiB", changes);
  ASSERT_NE(lost_row, std::string::npos);
  ASSERT_NE(regressed_row, std::string::npos);
  EXPECT_LT(lost_row, regressed_row) << "lost before regressed";
  EXPECT_NE(html.find("3 bad words in sample 2"), std::string::npos);
  EXPECT_NE(html.find("in the run: model_reference: 44.0 GB/s falls short of the NVIDIA H200",
                      regressed_row),
            std::string::npos)
      << "the run's own verdict on the figure says why it regressed";
  const auto unexplained = html.find("h2d_sm host-&gt;gpu0 1GiB", changes);
  ASSERT_NE(unexplained, std::string::npos);
  EXPECT_NE(html.find("-20.0%, beyond the 5% tolerance", unexplained), std::string::npos)
      << "a regression no check of the run explains says how far it moved";
  const auto maps = html.find("<h2>Matrices, baseline beside run</h2>");
  ASSERT_NE(maps, std::string::npos);
  EXPECT_LT(changes, maps);
  EXPECT_NE(html.find("<div class=\"beside\"><div class=\"heatmap\"><h3>h2d_ce, 1GiB copies", maps),
            std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// The worked example (docs/acceptance.md): the healthy RTX PRO 6000 host beside the one whose
// gpu5 trained at x8. The page names gpu5 before anything else, every regressed row says why,
// and each case has a heatmap of the change in which exactly gpu5's cells are marked failing.
TEST(SideBySide, TheWorkedExampleNamesItsSuspectFirstAndMapsTheChange) {
  const std::string dir = std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/";
  const auto load = [&](const std::string& name) {
    return doc::bench_document_from_json(read_json_file(dir + name), name);
  };
  const std::string html =
      render_side_by_side(load("rtxpro6000-healthy.json"), "healthy.json",
                          load("rtxpro6000-gpu5-x8.json"), "x8.json", CompareOptions{});
  const auto body = html.find("<body>");
  const auto suspect = html.find("<div class=\"suspect\"><b>suspect: gpu5 in 38 of 38 reasons");
  ASSERT_NE(suspect, std::string::npos);
  EXPECT_LT(suspect, html.find("<h1>"));
  EXPECT_LT(html.find("<div class=\"verdict fail\"", body), suspect);
  // Every moved row has its why; those the run's verdict judged say what it said.
  const auto changes = html.find("<table class=\"changes\">");
  const auto changes_end = html.find("</table>", changes);
  ASSERT_NE(changes, std::string::npos);
  const std::string table = html.substr(changes, changes_end - changes);
  EXPECT_EQ(occurrences(table, "<tr class=\"bad\">"), 38u);
  EXPECT_EQ(occurrences(table, "<td class=\"l\"></td>"), 0u) << "no empty why";
  EXPECT_NE(table.find("in the run: link_ceiling: 27.4 GB/s is 43% of PCIe gen5 x16"),
            std::string::npos);
  // A delta heatmap per case present on both sides; its failing cells are gpu5's alone.
  EXPECT_EQ(occurrences(html, "<h3>change, baseline to run: "), 8u);
  std::size_t failing = 0;
  for (auto at = html.find("<h3>change, baseline to run: "); at != std::string::npos;
       at = html.find("<h3>change, baseline to run: ", at + 1)) {
    const std::string map = html.substr(at, html.find("</table>", at) - at);
    const std::string mark = "o-fail\" data-pair=\"";
    for (auto c = map.find(mark); c != std::string::npos; c = map.find(mark, c + 1)) {
      ++failing;
      const auto from = c + mark.size();
      const std::string pair = map.substr(from, map.find('"', from) - from);
      EXPECT_NE(pair.find("gpu5"), std::string::npos) << pair;
    }
  }
  EXPECT_GE(failing, 20u);
  EXPECT_NE(html.find("-50.0%"), std::string::npos);
}

// Two NCCL runs (the 8-rank run on one H200 beside a copy where rank 5's sends and the largest
// all_reduce lost half their busbw): each collective matrix and the sendrecv pairs' rank matrix
// sit beside each other, with the change mapped cell by cell, as VM against LXC needs.
TEST(SideBySide, NcclRunsMapTheirChangeByCollectiveAndByRankPair) {
  const auto base = doc::bench_document_from_json(
      read_json_file(std::string(P2P_SOURCE_DIR) +
                     "/results/h200-vm-2026-12-03-one-gpu/nccl-ranks8.json"),
      "nccl-ranks8.json");
  auto run = base;
  run.hostname = "lxc";
  int halved = 0;
  for (auto& r : run.nccl->run.results) {
    const bool from5 = r.collective == "sendrecv_pairs" && r.src_rank == 5 && r.dst_rank != 5;
    const bool big_all_reduce = r.collective == "all_reduce" && r.size_bytes == (4u << 20);
    if (!from5 && !big_all_reduce) continue;
    *r.busbw_gbps /= 2;
    *r.algbw_gbps /= 2;
    ++halved;
  }
  ASSERT_GE(halved, 8);
  const std::string html = render_side_by_side(base, "vm.json", run, "lxc.json", CompareOptions{});
  for (const std::string title :
       {"change, baseline to run: NCCL busbw, float32 out_of_place, 8 ranks",
        "change, baseline to run: NCCL sendrecv pairs busbw, float32 out_of_place, 4MiB, 8 ranks"})
    EXPECT_NE(html.find(title), std::string::npos) << title;
  EXPECT_NE(html.find("<th>rank5</th>"), std::string::npos) << "rows and columns are ranks";
  EXPECT_GE(occurrences(html, "-50.0%"), 8u) << "each halved cell shows its change";
}

TEST(SideBySide, BenchBesideNcclIsBadInput) {
  EXPECT_THROW(render_side_by_side(kept_run("h200-bench.json"), "a", kept_run("h200-nccl.json"),
                                   "b", CompareOptions{}),
               InputError);
}

}  // namespace
}  // namespace p2p::report
