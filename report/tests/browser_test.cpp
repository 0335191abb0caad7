// The HTML report in a real browser: every results document kept in results/ and the synthetic
// 8-GPU one (report/tests/fixtures/) is rendered by headless Chromium. From the DOM Chromium
// built (--dump-dom): every heatmap cell of every matrix is there with its value, each GPU
// pair's cell names its path class, no script ran and none failed; a screenshot of each kind of
// page (bench or nccl, one GPU or several, logical, interrupted, imported) is not blank. Skips,
// saying why, where no Chromium is installed (Debian package `chromium`, installed by
// `scripts/install-deps.sh --with-browser`, which scripts/test.sh runs).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "report/bench_matrix.hpp"
#include "report/html_pairs.hpp"
#include "report/html_report.hpp"
#include "report/side_by_side.hpp"
#include "report/tests/export_tools.hpp"

namespace p2p::report {
namespace {

namespace fs = std::filesystem;

std::string browser() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    if (p2p::testing::have_command(name)) return name;
  }
  return "";
}

std::vector<std::string> documents() {
  std::vector<std::string> docs;
  for (const auto& e : fs::recursive_directory_iterator(std::string(P2P_SOURCE_DIR) + "/results")) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const auto j = read_json_file(e.path().string());
    if (j.is_object() && j.value("schema", "") == "p2pcheck.bench.run")
      docs.push_back(e.path().string());
  }
  docs.push_back(std::string(P2P_SOURCE_DIR) +
                 "/report/tests/fixtures/synthetic-8gpu-lxc-bench.json");
  return docs;
}

std::string unescape(std::string s) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"&gt;", ">"},
                                 {"&lt;", "<"},
                                 {"&quot;", "\""},
                                 {"&#39;", "'"},
                                 {"&amp;", "&"}}) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  }
  return s;
}

// (route, value text) -> how many cells show it; and route -> path class shown.
struct Cells {
  std::map<std::pair<std::string, std::string>, int> values;
  std::map<std::string, std::string> paths;
};

Cells expected_cells(const doc::BenchDocument& doc) {
  Cells c;
  const PairPaths paths(doc);
  std::vector<Matrix> maps = bandwidth_matrices(doc.bandwidth, true);
  for (auto& m : latency_matrices(doc.latency)) maps.push_back(std::move(m));
  for (const auto& m : maps) {
    for (std::size_t i = 0; i < m.rows.size(); ++i) {
      for (std::size_t j = 0; j < m.cols.size(); ++j) {
        const std::string route = m.rows[i] + "->" + m.cols[j];
        ++c.values[{route, m.cells[i][j] ? cell_text(m.cells[i][j]) : "-"}];
        if (const std::string p = paths.between(m.rows[i], m.cols[j]); !p.empty())
          c.paths[route] = p;
      }
    }
  }
  return c;
}

Cells dom_cells(const std::string& dom) {
  Cells c;
  static const std::regex cell(
      R"re(<td class="cell[^"]*" data-pair="([^"]*)"[^>]*><span class="v">([^<]*)</span>(?:<span class="path">([^<]*)</span>)?</td>)re");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), cell); it != std::sregex_iterator();
       ++it) {
    const std::string route = unescape((*it)[1]);
    ++c.values[{route, unescape((*it)[2])}];
    if ((*it)[3].matched) c.paths[route] = unescape((*it)[3]);
  }
  return c;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

TEST(ReportInBrowser, EveryDocumentRendersEveryCellAndAPicture) {
  const std::string chromium = browser();
  if (chromium.empty()) {
    GTEST_SKIP()
        << "no headless Chromium installed (Debian: chromium; `scripts/install-deps.sh --with-browser` installs "
           "it); the report was not checked in a browser";
  }
  const auto docs = documents();
  ASSERT_GE(docs.size(), 3u);
  p2p::TempDir dir;
  // Root cannot use Chromium's sandbox; the page runs no scripts, so nothing needs one.
  const std::string flags =
      " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run "
      "--enable-logging=stderr --v=0 --user-data-dir='" +
      dir.file("profile") + "'";
  std::set<std::string> pictured;  // kinds of page already screenshot
  for (const auto& path : docs) {
    SCOPED_TRACE(path);
    const auto doc = doc::bench_document_from_json(read_json_file(path), path);
    const std::string html = dir.file(fs::path(path).stem().string() + ".html");
    write_text_file_atomically(html, render_html_report(doc, fs::path(path).filename().string()));

    const auto dumped = p2p::testing::run_captured("timeout 120 " + chromium + flags +
                                                   " --dump-dom 'file://" + html + "'");
    ASSERT_EQ(dumped.exit_code, 0) << dumped.err.substr(0, 2000);
    const std::string& dom = dumped.out;
    ASSERT_NE(dom.find("<h1>p2pcheck"), std::string::npos) << dom.substr(0, 500);
    const Cells want = expected_cells(doc), got = dom_cells(dom);
    EXPECT_EQ(want.values.empty(), doc.bandwidth.empty() && doc.latency.empty());
    EXPECT_EQ(got.values, want.values) << "every heatmap cell, with its value";
    EXPECT_EQ(got.paths, want.paths) << "every GPU pair's path class";
    // The charts (an NCCL document's only pictures): every line of every chart made it.
    const std::string source = read_text_file(html);
    EXPECT_EQ(count(dom, "<polyline"), count(source, "<polyline"));
    EXPECT_EQ(count(dom, "<svg"), count(source, "<svg"));
    if (doc.nccl.has_value()) {
      EXPECT_GT(count(dom, "<polyline"), 0u);  // an NCCL document's results are its charts
    }
    EXPECT_EQ(dom.find("<script"), std::string::npos);
    EXPECT_EQ(dumped.err.find("Uncaught"), std::string::npos) << dumped.err.substr(0, 2000);
    EXPECT_EQ(dumped.err.find(":CONSOLE("), std::string::npos)
        << "the page logged to the console: " << dumped.err.substr(0, 2000);

    // A page of a kind already pictured is laid out by the same code: its DOM above is checked,
    // a second screenshot would show nothing new (and each costs a browser start).
    const std::string kind = doc.written_by + (doc.nccl ? " nccl" : "") +
                             (doc.logical_gpus > 0 ? " logical" : "") +
                             (doc.interrupted.empty() ? "" : " interrupted") +
                             (doc.gpus.size() > 1 ? " gpus" : " one-gpu");
    if (!pictured.insert(kind).second) continue;
    const std::string png = html + ".png";
    const auto shot = p2p::testing::run_captured("timeout 120 " + chromium + flags +
                                                 " --window-size=1400,1800 --screenshot='" + png +
                                                 "' 'file://" + html + "'");
    ASSERT_EQ(shot.exit_code, 0) << shot.err.substr(0, 2000);
    const auto pixels = p2p::testing::run_captured("python3 '" + std::string(P2P_SOURCE_DIR) +
                                                   "/report/tests/png_not_blank.py' '" + png + "'");
    EXPECT_EQ(pixels.exit_code, 0) << "blank screenshot: " << pixels.out << pixels.err;
  }
}

// The worked example's two pages as a reader's 1400-pixel window lays them out: nothing runs off
// the right edge or hides in a row that scrolls sideways (the side-by-side page's matrices wrap
// onto the next line instead), and no
// chart label is cut by its chart's edge. The pages run no scripts; a copy of each gets one at
// its end that writes what the layout measured into the page, which --dump-dom then shows.
TEST(ReportInBrowser, TheWorkedExamplesPagesFitTheWindowAndNoChartLabelIsCut) {
  const std::string chromium = browser();
  if (chromium.empty()) {
    GTEST_SKIP()
        << "no headless Chromium installed (Debian: chromium); the layout was not measured";
  }
  const std::string dir = std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/";
  const auto load = [&](const std::string& name) {
    return doc::bench_document_from_json(read_json_file(dir + name), name);
  };
  const std::string measure =
      "<script>(function(){var cut=0;document.querySelectorAll('svg').forEach(function(s){"
      "var w=s.viewBox.baseVal.width,h=s.viewBox.baseVal.height;s.querySelectorAll('text')."
      "forEach(function(t){var b=t.getBBox();if(b.x<0||b.y<0||b.x+b.width>w||b.y+b.height>h)"
      "cut++;});});var hidden=0;document.querySelectorAll('.beside,.maps').forEach(function(d){"
      "if(d.scrollWidth>d.clientWidth+1)hidden++;});document.body.insertAdjacentHTML('beforeend',"
      "'<div id=\"measured\">width '+document.documentElement.scrollWidth+' cut '+cut+' hidden '+"
      "hidden+'</div>');})();</script>";
  p2p::TempDir tmp;
  const std::string flags =
      " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --window-size=1400,1800 "
      "--user-data-dir='" +
      tmp.file("profile") + "'";
  const std::map<std::string, std::string> pages = {
      {"x8", render_html_report(load("rtxpro6000-gpu5-x8.json"), "x8.json")},
      {"side-by-side",
       render_side_by_side(load("rtxpro6000-healthy.json"), "healthy.json",
                           load("rtxpro6000-gpu5-x8.json"), "x8.json", CompareOptions{})}};
  for (const auto& [name, page] : pages) {
    SCOPED_TRACE(name);
    std::string measured = page;
    measured.insert(measured.rfind("</body>"), measure);
    const std::string html = tmp.file(name + ".html");
    write_text_file_atomically(html, measured);
    const auto dumped = p2p::testing::run_captured("timeout 120 " + chromium + flags +
                                                   " --dump-dom 'file://" + html + "'");
    ASSERT_EQ(dumped.exit_code, 0) << dumped.err.substr(0, 2000);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        dumped.out, m,
        std::regex(R"(<div id="measured">width (\d+) cut (\d+) hidden (\d+)</div>)")))
        << dumped.out.substr(dumped.out.size() > 2000 ? dumped.out.size() - 2000 : 0);
    EXPECT_LE(std::stoi(m[1]), 1400) << "the page is wider than the window";
    EXPECT_EQ(std::stoi(m[2]), 0) << "chart labels cut by the chart's edge";
    EXPECT_EQ(std::stoi(m[3]), 0) << "matrices hidden in a row that scrolls sideways";
  }
}

// The 8-GPU page a reader opens first: 56 routes per matrix, each GPU pair's path class in its
// cell, the staged matrix beside the P2P one, and the failed, errored and P2P-less pairs first.
TEST(ReportInBrowser, EightGpuPageOrdersWhatMatters) {
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/report/tests/fixtures/synthetic-8gpu-lxc-bench.json";
  const auto doc = doc::bench_document_from_json(read_json_file(path), path);
  const std::string html = render_html_report(doc, "synthetic-8gpu-lxc-bench.json");
  const Cells cells = dom_cells(html);
  EXPECT_EQ(cells.paths.size(), 56u);
  EXPECT_EQ(cells.paths.at("gpu0->gpu1"), "NODE");
  EXPECT_EQ(cells.paths.at("gpu0->gpu4"), "SYS");
  const auto beside =
      html.find("<div class=\"beside\"><div class=\"heatmap\"><h3>ce_unidir_write,");
  ASSERT_NE(beside, std::string::npos);
  EXPECT_LT(html.find("<div class=\"heatmap\"><h3>staged,", beside),
            html.find("</div>\n<div class=\"maps\">", beside));
  const auto first = html.find("<h2>Pairs to look at first</h2>");
  ASSERT_NE(first, std::string::npos);
  const auto failed = html.find("<td class=\"l\">gpu1-&gt;gpu2</td>", first);
  const auto errored = html.find("<td class=\"l\">gpu5-&gt;gpu6</td>", first);
  const auto lost = html.find("<td class=\"l\">gpu0-&gt;gpu4</td>", first);
  ASSERT_NE(lost, std::string::npos);
  EXPECT_LT(failed, errored);
  EXPECT_LT(errored, lost);
  EXPECT_LT(lost, html.find("<h2>Bandwidth at the largest size</h2>"));
}

}  // namespace
}  // namespace p2p::report
