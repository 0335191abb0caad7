// The HTML report from real documents (the H200 runs in results/) and from small made-up ones:
// what a reader must find on the page, escaped, with the cells coloured by what they reached.
#include "report/html_report.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

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

// The rows of the "Pairs to look at first" table that name gpu5.
std::size_t occurrences_in_attention(const std::string& html, std::size_t attention) {
  const std::string table = html.substr(attention, html.find("</table>", attention) - attention);
  std::size_t n = 0;
  for (auto at = table.find("<tr class="); at != std::string::npos;
       at = table.find("<tr class=", at + 1))
    n += table.substr(at, table.find("</td>", at) - at).find("gpu5") != std::string::npos;
  return n;
}

TEST(HtmlReport, BenchRunShowsHostGateHeatmapsChartsAndSummary) {
  const std::string html = render_html_report(load("h200-bench.json"), "h200-bench.json");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>p2pcheck bench report: vm</h1>"), std::string::npos);
  EXPECT_NE(html.find("580.159.04"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"pass\">pass</span>"), std::string::npos);
  // d2h_ce at 1 GiB: 55.34 GB/s, 88% of PCIe gen5 x16: it passes its check, in a dark blue.
  EXPECT_NE(
      html.find(
          "<td class=\"cell o-pass\" data-pair=\"gpu0-&gt;host\" style=\"background:hsl(210,70%,73%)\">"
          "<span class=\"v\">55.34 (88%)</span></td>"),
      std::string::npos);
  // The copies no check reads are shown, not judged, and not shaded as if they had passed.
  EXPECT_NE(html.find("<td class=\"cell o-none\" data-pair=\"gpu0-&gt;gpu0\"><span class=\"v\">"),
            std::string::npos);
  EXPECT_EQ(count(html, "<div class=\"legend heat-legend\">"), 1u);
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
  // No topology, no model: nothing holds the 25 GB/s to a link, so it is shown, not judged.
  EXPECT_NE(
      html.find(
          "<td class=\"cell o-none\" data-pair=\"gpu0-&gt;gpu1\"><span class=\"v\">25.00 (40%)</span></td>"),
      std::string::npos);
  EXPECT_NE(html.find("<td class=\"cell bad o-fail\" data-pair=\"gpu1-&gt;gpu0\" "
                      "title=\"verification: wrong data: 3 bad words\"><span class=\"v\">24.00 "
                      "FAILED</span></td>"),
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

doc::BenchDocument worked_example(const std::string& name) {
  const std::string path = std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/" + name;
  return doc::bench_document_from_json(read_json_file(path), name);
}

// The value of attribute `name` in each element that `marker` begins.
std::vector<std::string> attributes(const std::string& html, const std::string& marker,
                                    const std::string& name) {
  std::vector<std::string> out;
  for (auto at = html.find(marker); at != std::string::npos; at = html.find(marker, at + 1)) {
    const auto end = html.find('>', at);
    const auto a = html.find(" " + name + "=\"", at);
    if (a == std::string::npos || a > end) continue;
    const auto from = a + name.size() + 3;
    out.push_back(html.substr(from, html.find('"', from) - from));
  }
  return out;
}

// The worked example (docs/acceptance.md), gpu5's slot at x8: the page names gpu5 first, paints
// each cell by what its check said, so the failing NODE pairs at 43% are marked failing while
// the SYS pairs that only warn are not, and lists the pairs to look at from every reason.
TEST(HtmlReport, TheWorkedExamplesCellsAreMarkedByTheirChecksAndGpu5ComesFirst) {
  const std::string html = render_html_report(worked_example("rtxpro6000-gpu5-x8.json"), "x8.json");
  const auto suspect = html.find(
      "<div class=\"suspect\"><b>suspect: gpu5 in 69 of 69 reasons; its "
      "host link: 27.6 GB/s is 44% of PCIe gen5 x16");
  ASSERT_NE(suspect, std::string::npos);
  EXPECT_LT(suspect, html.find("<h1>"));
  const auto failing = attributes(html, "<td class=\"cell o-fail\"", "data-pair");
  ASSERT_GE(failing.size(), 20u);
  for (const auto& pair : failing) EXPECT_NE(pair.find("gpu5"), std::string::npos) << pair;
  for (const auto& why : attributes(html, "<td class=\"cell o-fail\"", "title"))
    EXPECT_FALSE(why.empty());
  EXPECT_EQ(attributes(html, "<td class=\"cell o-fail\"", "title").size(), failing.size())
      << "every failing cell says why";
  EXPECT_NE(html.find("<td class=\"cell o-fail\" data-pair=\"gpu4-&gt;gpu5\" title=\"link_ceiling: "
                      "27.4 GB/s is 43% of PCIe gen5 x16"),
            std::string::npos)
      << "a NODE pair at 43% fails";
  for (const auto& pair : attributes(html, "<td class=\"cell o-warn\"", "data-pair"))
    EXPECT_EQ(pair.find("gpu5"), std::string::npos) << pair;
  for (const auto& style : attributes(html, "<td class=\"cell o-pass\"", "style"))
    EXPECT_EQ(style.rfind("background:hsl(210,", 0), 0u) << style;
  // The topology matrix is neutral: SYS between sockets is how the host is built.
  const auto topology = html.find("<table class=\"topology\">");
  ASSERT_NE(topology, std::string::npos);
  const std::string matrix = html.substr(topology, html.find("</table>", topology) - topology);
  EXPECT_EQ(matrix.find("style="), std::string::npos);
  EXPECT_NE(matrix.find("<td class=\"topo\">SYS</td>"), std::string::npos);
  // Pairs to look at: built from every reason, gpu5's first, each with its first reason.
  const auto attention = html.find("<h2>Pairs to look at first</h2>");
  ASSERT_NE(attention, std::string::npos);
  const auto first_row = html.find("<tr class=\"bad\"><td class=\"l\">", attention);
  ASSERT_NE(first_row, std::string::npos);
  EXPECT_NE(html.substr(first_row, 60).find("gpu5"), std::string::npos);
  EXPECT_NE(html.find("link_ceiling: ", first_row), std::string::npos);
  EXPECT_EQ(occurrences_in_attention(html, attention), 14u)
      << "gpu5 with each of 7 GPUs, both ways";
}

// The charts span the page, a route keeps its colour on every chart, each swept case shows
// the link's ceiling it was held to and a ring where each line reaches 90% of its peak.
TEST(HtmlReport, ChartsSpanThePageKeepTheirColoursAndShowCeilingsAndTheNinetyPercentMark) {
  const std::string html = render_html_report(load("h200-bench.json"), "h200-bench.json");
  const std::size_t charts = count(html, "<svg class=\"chart\" viewBox=\"0 0 1000 300\"");
  EXPECT_EQ(charts, count(html, "<svg"));
  EXPECT_EQ(charts, 8u);
  std::set<std::string> host_to_gpu;
  for (auto at = html.find("<title>host-&gt;gpu0</title></polyline>"); at != std::string::npos;
       at = html.find("<title>host-&gt;gpu0</title></polyline>", at + 1)) {
    const auto stroke = html.rfind("<polyline fill=\"none\" stroke=\"", at);
    host_to_gpu.insert(html.substr(stroke, 40));
  }
  EXPECT_EQ(host_to_gpu.size(), 1u) << "one colour for host->gpu0 on every chart";
  EXPECT_NE(html.find("<title>ceiling: PCIe gen5 x16 63.0 GB/s</title></line>"), std::string::npos);
  EXPECT_GE(count(html, "<circle class=\"at90\""), 8u);
  EXPECT_NE(html.find("host-&gt;gpu0: 90% of its peak from "), std::string::npos);
}

// Eight rank processes on one GPU: the NCCL tables tell the ranks apart, and a GPU with itself is
// no pair to look at.
TEST(HtmlReport, RanksSharingAGpuAreLabelledByRankAndNoGpuIsPairedWithItself) {
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-one-gpu/nccl-ranks8.json";
  const std::string html =
      render_html_report(doc::bench_document_from_json(read_json_file(path), "r8"), "r8.json");
  for (int r = 0; r < 8; ++r)
    EXPECT_NE(html.find("r" + std::to_string(r) + "/GPU0"), std::string::npos) << r;
  EXPECT_EQ(html.find("gpu0-&gt;gpu0</td>"), std::string::npos);
}

// One hue, read by its lightness, so no reader needs to tell red from green.
TEST(HtmlReport, HeatColourIsOneBlueDarkeningTowardsTheCeilingAndClamps) {
  EXPECT_EQ(heat_colour(0.0), "hsl(210,70%,94%)");
  EXPECT_EQ(heat_colour(0.5), "hsl(210,70%,82%)");
  EXPECT_EQ(heat_colour(1.0), "hsl(210,70%,70%)");
  EXPECT_EQ(heat_colour(1.7), "hsl(210,70%,70%)");
  EXPECT_EQ(heat_colour(-1.0), "hsl(210,70%,94%)");
  EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

}  // namespace
}  // namespace p2p::report
