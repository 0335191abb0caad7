// The HTML report from real documents (the H200 runs in results/) and from small made-up ones:
// what a reader must find on the page, escaped, with the cells coloured by what they reached.
#include "report/html_report.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "document/bench_document.hpp"

namespace p2p::report {
namespace {

const std::string kResults = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/";

doc::BenchDocument load(const std::string& name) {
  return doc::bench_document_from_json(read_json_file(kResults + name), name);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

TEST(HtmlReport, BenchRunShowsHostGateHeatmapsChartsAndSummary) {
  const std::string html = render_html_report(load("h200-bench.json"), "h200-bench.json");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>p2pcheck bench report: vm</h1>"), std::string::npos);
  EXPECT_NE(html.find("580.159.04"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"pass\">pass</span>"), std::string::npos);
  // d2h_ce at 1 GiB: 55.34 GB/s, 88% of PCIe gen5 x16, on an almost green cell.
  EXPECT_NE(
      html.find(
          "<td class=\"cell\" data-pair=\"gpu0-&gt;host\" style=\"background:hsl(105,70%,78%)\">"
          "<span class=\"v\">55.34 (88%)</span></td>"),
      std::string::npos);
  EXPECT_NE(html.find("<h2>Size sweeps</h2>"), std::string::npos);
  EXPECT_GE(count(html, "<polyline"), 10u);  // one line per route of every swept case
  EXPECT_NE(html.find("<h2>Latency</h2>"), std::string::npos);
  EXPECT_NE(html.find("229 figures verified, 0 FAILED verification, 0 waived, 0 errors"),
            std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // self-contained, nothing to run
  EXPECT_EQ(html.find("http"), std::string::npos);     // nothing to fetch
}

TEST(HtmlReport, LogicalGpuRunIsMarkedWithEachGpusDevice) {
  doc::BenchDocument d = load("h200-bench.json");
  d.logical_gpus = 2;
  d.gpus.push_back(d.gpus[0]);
  d.gpus[0].logical_gpu = 0;
  d.gpus[1].logical_gpu = 1;
  const std::string html = render_html_report(d, "logical.json");
  EXPECT_NE(
      html.find(
          "<div class=\"note logical\">2 logical GPUs on 1 device: figures measure the tool, not the "
          "links</div>"),
      std::string::npos);
  EXPECT_NE(html.find("<tr><td>gpu1</td><td>0</td>"), std::string::npos);
  const std::string physical = render_html_report(load("h200-bench.json"), "h200-bench.json");
  EXPECT_EQ(physical.find("logical GPUs"), std::string::npos);
  EXPECT_NE(physical.find("<tr><td>gpu0</td><td>0</td>"), std::string::npos);
}

// Sizes no chart can place (0 B, 2^64 - 1 B) are left off the chart; the page still renders.
TEST(HtmlReport, SizesOutsideTheAxisAreLeftOffTheChart) {
  doc::BenchDocument d;
  for (std::uint64_t bytes :
       {std::uint64_t{0}, std::uint64_t{1} << 20, std::uint64_t{1} << 30, ~std::uint64_t{0}}) {
    doc::BandwidthResult r;
    r.case_name = "h2d_ce";
    r.src = "host";
    r.dst = "gpu0";
    r.bytes = bytes;
    r.median_gbps = 50.0;
    d.bandwidth.push_back(r);
  }
  const std::string html = render_html_report(d, "odd.json");
  EXPECT_EQ(count(html, "<polyline"), 1u);
  EXPECT_NE(html.find("1MiB"), std::string::npos);
}

TEST(HtmlReport, NcclRunShowsOneChartPerOperationAndTheTables) {
  const std::string html = render_html_report(load("h200-nccl.json"), "h200-nccl.json");
  EXPECT_NE(html.find("<h1>p2pcheck nccl report: vm</h1>"), std::string::npos);
  for (const char* op :
       {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall", "sendrecv"}) {
    EXPECT_NE(
        html.find(
            std::string("<h3>") + op +
            ": time per call by message size (one rank: nothing crosses a bus, no bandwidth shown)</h3>"),
        std::string::npos)
        << op;
  }
  EXPECT_NE(html.find("every size, as nccl-tests prints it"), std::string::npos);
  EXPECT_NE(html.find("float32 in-place"), std::string::npos);
}

TEST(HtmlReport, FailedAndWaivedCellsAreMarkedAndTextIsEscaped) {
  doc::BenchDocument d;
  d.hostname = "<lxc & vm>";
  d.gate.decision = topo::GateVerdict::kBlock;
  d.gate.detail = "1 blocking reason(s)";
  doc::BandwidthResult ok, failed, waived;
  ok.case_name = failed.case_name = waived.case_name = "ce_unidir_write";
  ok.bytes = failed.bytes = waived.bytes = 1ull << 30;
  ok.src = "gpu0", ok.dst = "gpu1", ok.median_gbps = 25.0, ok.achieved_pct = 40.0;
  failed.src = "gpu1", failed.dst = "gpu0", failed.median_gbps = 24.0,
  failed.status = nlohmann::json("failed").get<decltype(failed.status)>();
  failed.detail = "3 bad words";
  waived.src = "gpu0", waived.dst = "gpu2",
  waived.status = nlohmann::json("waived").get<decltype(waived.status)>();
  waived.detail = "cudaDeviceCanAccessPeer(gpu0, gpu2) = 0";
  d.bandwidth = {ok, failed, waived};
  const std::string html = render_html_report(d, "a&b.json");
  EXPECT_NE(html.find("&lt;lxc &amp; vm&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<lxc"), std::string::npos);
  EXPECT_NE(html.find("a&amp;b.json"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"block\">block</span>"), std::string::npos);
  EXPECT_NE(
      html.find(
          "<td class=\"cell\" data-pair=\"gpu0-&gt;gpu1\" style=\"background:hsl(48,70%,78%)\">"
          "<span class=\"v\">25.00 (40%)</span></td>"),
      std::string::npos);
  EXPECT_NE(
      html.find(
          "<td class=\"cell bad\" data-pair=\"gpu1-&gt;gpu0\"><span class=\"v\">24.00 FAILED</span></td>"),
      std::string::npos);
  EXPECT_NE(
      html.find(
          "<td class=\"cell waived\" data-pair=\"gpu0-&gt;gpu2\"><span class=\"v\">waived</span></td>"),
      std::string::npos);
  // The pairs to look at come first, the failed one before the one that lost P2P.
  const auto attention = html.find("<h2>Pairs to look at first</h2>");
  ASSERT_NE(attention, std::string::npos);
  EXPECT_LT(attention, html.find("<h2>Bandwidth at the largest size</h2>"));
  EXPECT_LT(html.find("<td class=\"l\">gpu1-&gt;gpu0</td>", attention),
            html.find("<td class=\"l\">gpu0-&gt;gpu2</td>", attention));
  EXPECT_NE(html.find("cudaDeviceCanAccessPeer(gpu0, gpu2) = 0"), std::string::npos);
  EXPECT_NE(html.find("1 figures verified, 1 FAILED verification, 1 waived, 0 errors"),
            std::string::npos);
}

TEST(HtmlReport, HeatColourRunsFromRedToGreenAndClamps) {
  EXPECT_EQ(heat_colour(0.0), "hsl(0,70%,78%)");
  EXPECT_EQ(heat_colour(0.5), "hsl(60,70%,78%)");
  EXPECT_EQ(heat_colour(1.0), "hsl(120,70%,78%)");
  EXPECT_EQ(heat_colour(1.7), "hsl(120,70%,78%)");
  EXPECT_EQ(heat_colour(-1.0), "hsl(0,70%,78%)");
  EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

}  // namespace
}  // namespace p2p::report
