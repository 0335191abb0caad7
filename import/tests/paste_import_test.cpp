// Pastes as `p2pcheck import` takes them (import_paste), each shape on real pastes from
// fixtures/pastes/: several tools' tables in one paste, two runs of one tool, --tool and
// --collective, what is assumed said once, a paste with no table refused, and a fragment of one
// tool from one host compared with p2pcheck's own document from another.
#include <gtest/gtest.h>

#include <algorithm>

#include "document/bench_document.hpp"
#include "import/import_document.hpp"
#include "import/paste_sections.hpp"
#include "import/tests/test_support.hpp"
#include "report/compare.hpp"
#include "report/html_report.hpp"

namespace p2p::import {
namespace {

using testing::fixture_text;
using testing::input_error_of;

std::string paste(const std::string& name) { return fixture_text("pastes/" + name); }

std::vector<std::string> tools(const ImportedPaste& p) {
  std::vector<std::string> out;
  for (const auto& s : p.sections) out.push_back(s.file.tool);
  return out;
}

bool said(const ImportedFigures& f, const std::string& part) {
  return std::any_of(f.file.notes.begin(), f.file.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

// Three real pastes one after another, as a user would put them in one comment.
std::string three_tools() {
  return paste("topo-nccl-1617-4x-h100-nv6-nics.txt") + "\n" +
         paste("nvbandwidth-24-h100-sm-quoted-no-banner.txt") + "\n" +
         paste("nccl-1411-table-under-env-line-cut-row.txt");
}

TEST(PasteImport, SeveralToolsTablesInOnePasteAreSectionsOfOneDocument) {
  const ImportedPaste p = import_paste(three_tools(), "three.txt", ImportOptions{});
  EXPECT_EQ(tools(p), (std::vector<std::string>{"nvidia-smi", "nvbandwidth", "nccl-tests"}));
  EXPECT_EQ(p.sections[0].first_line, 1);
  // nvbandwidth's section starts at its first "Running" line: the prose above it, apart from it
  // by a blank line, stays with the section before.
  EXPECT_EQ(p.sections[1].first_line, 26);
  EXPECT_EQ(p.sections[2].last_line, 52);
  EXPECT_EQ(p.stripped, (std::vector<std::string>{"Markdown fences on 2 lines",
                                                  "quote markers (`> `) on 2 lines"}));
  const auto doc = import_document(p.sections, ImportOptions{}, "2026-12-02T11:00:00Z");
  EXPECT_EQ(doc.imported.size(), 3u);
  ASSERT_TRUE(doc.topology.has_value());
  EXPECT_EQ(doc.topology->gpus.size(), 4u);
  EXPECT_EQ(doc.topology_source, "three.txt");
  EXPECT_EQ(doc.gpus.size(), 8u);  // nvbandwidth's eight columns outnumber the topo's GPUs
  EXPECT_EQ(doc::nccl_section_of(doc, "three").run.results.size(), 16u);
}

TEST(PasteImport, TwoRunsOfOneToolAreTwoSectionsEachWithItsCopySize) {
  const auto p =
      import_paste(paste("nvbandwidth-42-a100-two-fenced-runs.txt"), "two.txt", ImportOptions{});
  ASSERT_EQ(tools(p), (std::vector<std::string>{"nvbandwidth", "nvbandwidth"}));
  EXPECT_EQ(p.sections[0].bandwidth.at(0).bytes, 512ull << 20);  // "-b 512" above the first
  EXPECT_EQ(p.sections[1].bandwidth.at(0).bytes, 1024ull << 20);
  EXPECT_EQ(p.sections[1].first_line, 34);  // from the second run's command line
}

TEST(PasteImport, ToolReadsOnlyThatToolsTablesAndSaysSo) {
  ImportOptions o;
  o.tool = "nccl-tests";
  const auto p = import_paste(three_tools(), "three.txt", o);
  ASSERT_EQ(tools(p), (std::vector<std::string>{"nccl-tests"}));
  EXPECT_TRUE(said(p.sections[0], "assumed: its tables are nccl-tests output (--tool)"));
  o.tool = "p2pBandwidthLatencyTest";
  EXPECT_EQ(input_error_of([&] {
              import_paste(three_tools(), "three.txt", o);
            }).rfind("three.txt: no table found of p2pBandwidthLatencyTest output (--tool): ", 0),
            0u);
}

TEST(PasteImport, ACollectiveTheTableDoesNotNameIsUnknownOrGiven) {
  const std::string text = paste("nccl-1411-table-under-env-line-cut-row.txt");
  const auto unknown = import_paste(text, "t.txt", ImportOptions{}).sections.at(0);
  EXPECT_EQ(unknown.nccl->results.front().collective, "unknown");
  EXPECT_TRUE(said(unknown, "assumed: collective unknown: the table does not name it"));
  EXPECT_TRUE(said(unknown, "line 14: the last row is cut (4 of 13 fields): left out"));
  ImportOptions o;
  o.collective = "all_reduce";
  const auto given = import_paste(text, "t.txt", o).sections.at(0);
  EXPECT_EQ(given.nccl->results.front().collective, "all_reduce");
  EXPECT_EQ(given.nccl->results.front().nranks, 16);  // busbw/algbw of all_reduce: 2(n-1)/n
  EXPECT_TRUE(said(given, "assumed: all_reduce (--collective)"));
  EXPECT_TRUE(said(given, "assumed: 16 ranks, from busbw/algbw"));
}

// nccl-tests prints rows of size 0 (reduce_scatter below one element per rank): they moved
// nothing, are left out and said, and the document stays one compare and report can read.
TEST(PasteImport, RowsOfSizeZeroAreLeftOutAndTheDocumentReadsBack) {
  const std::string name = "holdout/nccl-tests-128-reduce-scatter-table-no-banner.txt";
  const auto p = import_paste(paste(name), name, ImportOptions{});
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].nccl->results.size(), 4u);  // 128 and 256 bytes, both placements
  EXPECT_TRUE(said(p.sections[0], "5 rows of size 0 left out (nothing moved)"));
  EXPECT_TRUE(said(p.sections[0], "the last row is cut"));
  const auto doc = import_document(p.sections, ImportOptions{}, "2026-12-02T11:00:00Z");
  const auto back = doc::bench_document_from_json(nlohmann::json(doc), name);
  EXPECT_EQ(doc::nccl_section_of(back, name).run.results.size(), 4u);
}

// The SUM lines of the real H200 run, pasted without their matrices (as people quote a result):
// each a total over every GPU, named by its testcase; the latency sum, which means nothing, left
// out.
TEST(PasteImport, SumLinesPastedAloneAreTotalsNamedByTheirTestcase) {
  std::string sums;
  const std::string run = fixture_text("nvbandwidth-v0.8-h200.txt");
  for (std::size_t at = run.find("SUM "); at != std::string::npos; at = run.find("SUM ", at + 1))
    sums += "> " + run.substr(at, run.find('\n', at) - at) + "\n";
  const auto p = import_paste(sums, "sums.txt", ImportOptions{});
  ASSERT_EQ(tools(p), (std::vector<std::string>{"nvbandwidth"}));
  const auto& f = p.sections[0];
  ASSERT_EQ(f.bandwidth.size(), 7u);
  const auto* h2d =
      testing::find_figure(f.bandwidth, "host_to_device_memcpy_ce", "all", "all", "sum");
  ASSERT_NE(h2d, nullptr);
  EXPECT_DOUBLE_EQ(h2d->median_gbps.value(), 55.44);
  EXPECT_EQ(h2d->source->figure, "SUM host_to_device_memcpy_ce");
  EXPECT_TRUE(f.latency.empty());
}

// A real two-GPU paste (club-3090#1229) with `topo -m` and `topo -p2p rw` in two <details>
// blocks: one nvidia-smi section, the topology and the peer access it tells.
TEST(PasteImport, ATopoAndItsP2pMatrixInOnePasteAreOneSection) {
  const std::string name = "topo-2x-rtx5090-phb-and-p2p-rw-gns.txt";
  const auto p = import_paste(fixture_text(name), name, ImportOptions{});
  ASSERT_EQ(tools(p), (std::vector<std::string>{"nvidia-smi"}));
  const auto& f = p.sections[0];
  ASSERT_TRUE(f.topology.has_value());
  EXPECT_EQ(f.topology->pcie_matrix[0][1], topo::PathClass::kPhb);
  ASSERT_EQ(f.topology->p2p_status.size(), 1u);
  EXPECT_EQ(f.topology->p2p_status[0].capability, "read+write");
  EXPECT_EQ(f.topology->p2p_status[0].cells[0][1], "GNS");
  EXPECT_EQ(f.p2p_access, (std::vector<std::vector<bool>>{{false, false}, {false, false}}));
  EXPECT_EQ(f.gpus.at(1).cpuset, "0-63");
}

// -J output quoted in a reply, inside a fence: the JSON once the wrappers are gone.
TEST(PasteImport, JsonOutputPastedInAFenceAndQuotedIsReadAsJson) {
  std::string quoted = "> ```json\n";
  const std::string json = fixture_text("nccl-tests-2.19.6-h200-all_reduce.json");
  for (std::size_t at = 0; at < json.size();) {
    const std::size_t end = json.find('\n', at);
    quoted += "> " + json.substr(at, end - at) + "\n";
    at = end == std::string::npos ? json.size() : end + 1;
  }
  quoted += "> ```\n";
  const auto p = import_paste(quoted, "quoted.txt", ImportOptions{});
  ASSERT_EQ(tools(p), (std::vector<std::string>{"nccl-tests"}));
  EXPECT_EQ(p.sections[0].file.format, "json");
  EXPECT_EQ(p.sections[0].nccl->results.size(),
            import_paste(json, "j.json", ImportOptions{}).sections[0].nccl->results.size());
}

TEST(PasteImport, APasteWithNoTableIsOneLineNamingTheFileAndWhatWasLookedFor) {
  const ImportOptions o;
  const auto error = [&](const std::string& name) {
    return input_error_of([&] { import_paste(paste(name), name, o); });
  };
  const std::string cut = "none-nccl-tests-100-p2p-sample-cut-in-device-list.txt";
  EXPECT_EQ(error(cut), cut +
                            ": no table found (p2pBandwidthLatencyTest output starts, but no "
                            "result table follows: cut before it, or the test printed none): "
                            "looked for " +
                            tables_looked_for());
  // A header whose rows were all cut is a table with nothing in it.
  const std::string header = "none-nccl-tests-249-unmarked-header-cut-first-row.txt";
  EXPECT_EQ(error(header).rfind(header + ": not nccl-tests output: line ", 0), 0u) << error(header);
  EXPECT_NE(error(header).find("a table header with no complete row under it"), std::string::npos);
  EXPECT_NE(error("none-nccl-tests-107-two-headers-no-rows.txt")
                .find("a table header with no complete row under it"),
            std::string::npos);
}

// A fragment of nvbandwidth from an H100 host (no banner, no device list) against p2pcheck
// bench's document of the H200: compared on the figures both hold, and reported.
TEST(PasteImport, AFragmentComparesWithAnotherHostsP2pcheckDocumentAndReports) {
  const auto p = import_paste(paste("nvbandwidth-24-h100-sm-quoted-no-banner.txt"), "h100.txt",
                              ImportOptions{});
  const auto fragment = import_document(p.sections, ImportOptions{}, "2026-12-02T11:00:00Z");
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";
  const auto bench = doc::bench_document_from_json(read_json_file(path), path);
  const auto c = report::compare_runs(fragment, bench, report::CompareOptions{});
  const auto h2d = std::find_if(c.figures.begin(), c.figures.end(),
                                [](const auto& f) { return f.key == "h2d_sm host->gpu0 512MiB"; });
  ASSERT_NE(h2d, c.figures.end());
  EXPECT_DOUBLE_EQ(h2d->baseline.value(), 35.19);
  EXPECT_TRUE(h2d->run.has_value());
  EXPECT_EQ(h2d->baseline_source, "nvbandwidth host_to_device_memcpy_sm");
  EXPECT_NE(report::imported_lines(fragment, bench)
                .find("nvbandwidth host_to_device_memcpy_sm -> h2d_sm"),
            std::string::npos);
  const std::string html = report::render_html_report(fragment, "h100.json");
  EXPECT_NE(html.find("35.19"), std::string::npos);
}

}  // namespace
}  // namespace p2p::import
