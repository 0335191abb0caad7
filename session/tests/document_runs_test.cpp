// compare, report, export and import without their command lines, over the documents kept in
// the repository (the H200 run in results/, peer tools' outputs in import/tests/fixtures/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "session/compare_run.hpp"
#include "session/export_run.hpp"
#include "session/import_run.hpp"
#include "session/report_run.hpp"

namespace {

namespace fs = std::filesystem;
using namespace p2p::session;

const std::string kRun =
    std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";

std::string import_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name;
}

// The H200 run with one figure 20% slower, in `dir`.
std::string slower_run(const p2p::TempDir& dir) {
  nlohmann::json doc = p2p::read_json_file(kRun);
  for (auto& b : doc["bandwidth"]) {
    if (b["case"] == "d2h_ce" && b["bytes"] == 1073741824)
      b["median_gbps"] = b["median_gbps"].get<double>() * 0.8;
  }
  const std::string path = dir.file("slower.json");
  std::ofstream(path) << doc.dump();
  return path;
}

TEST(CompareRun, ARunAgainstItselfPasses) {
  const auto c = run_compare(CompareRequest{kRun, kRun});
  EXPECT_EQ(c.comparison.regressions(), 0);
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_EQ(c.host, c.run.hostname);
}

TEST(CompareRun, ASlowerFigureFailsUnlessTheToleranceCoversIt) {
  const p2p::TempDir dir("p2p_compare_run");
  CompareRequest r{kRun, slower_run(dir)};
  const auto strict = run_compare(r);
  EXPECT_EQ(strict.comparison.regressions(), 1);
  EXPECT_EQ(strict.exit_code, 1);
  r.tolerance_pct = 25;
  EXPECT_EQ(run_compare(r).exit_code, 0);
}

TEST(CompareRun, ABadMinBytesIsBadInput) {
  CompareRequest r{kRun, kRun};
  r.min_bytes = "lots";
  EXPECT_THROW(run_compare(r), p2p::InputError);
}

TEST(ReportRun, ThePageIsNamedAfterTheDocuments) {
  EXPECT_EQ(report_output_path({"a/run.json"}), "a/run.html");
  EXPECT_EQ(report_output_path({"a/run"}), "a/run.html");
  EXPECT_EQ(report_output_path({"a/run.json", "b/base.json"}), "a/run-vs-base.html");
}

TEST(ReportRun, APageIsWrittenAndADocumentIsNeverOverwritten) {
  const p2p::TempDir dir("p2p_report_run");
  const std::string out = dir.file("page.html");
  EXPECT_EQ(write_report(ReportRequest{{kRun}, out}), out);
  EXPECT_NE(p2p::read_text_file(out).find("<html"), std::string::npos);
  const std::string copy = dir.file("run.json");
  fs::copy_file(kRun, copy);
  EXPECT_THROW(write_report(ReportRequest{{copy}, copy}), p2p::InputError);
  EXPECT_EQ(p2p::read_text_file(copy), p2p::read_text_file(kRun));
  EXPECT_THROW(write_report(ReportRequest{{kRun, kRun, kRun}, out}), p2p::InputError);
}

TEST(ExportRun, AResultsDocumentBecomesJUnitAndPrometheus) {
  const p2p::TempDir dir("p2p_export_run");
  write_export(ExportRequest{kRun, dir.file("run.xml"), "", "node-a"}, 0);
  const std::string xml = p2p::read_text_file(dir.file("run.xml"));
  EXPECT_NE(xml.find("<testsuites"), std::string::npos);
  EXPECT_NE(xml.find("node-a"), std::string::npos) << "the host name given files the cases";
  write_export(ExportRequest{kRun, "", dir.file("run.prom"), "node-a"}, 0);
  EXPECT_NE(p2p::read_text_file(dir.file("run.prom")).find("Hostname=\"node-a\""),
            std::string::npos);
}

TEST(ExportRun, TheDocumentIsNeverOverwritten) {
  const p2p::TempDir dir("p2p_export_run");
  const std::string copy = dir.file("run.json");
  fs::copy_file(kRun, copy);
  EXPECT_THROW(write_export(ExportRequest{copy, copy, "", ""}, 0), p2p::InputError);
  EXPECT_EQ(p2p::read_text_file(copy), p2p::read_text_file(kRun));
}

TEST(ImportRun, PeerToolsOutputsBecomeOneDocument) {
  const p2p::TempDir dir("p2p_import_run");
  ImportRequest r;
  r.files = {import_fixture("nvbandwidth-v0.8-h200.txt"),
             import_fixture("nccl-tests-2.19.6-h200-all_reduce.json")};
  r.json = dir.file("imported.json");
  const auto o = run_import(r);
  ASSERT_EQ(o.parts.size(), 2u);
  EXPECT_EQ(o.parts[0].file.tool, "nvbandwidth");
  EXPECT_EQ(o.parts[1].file.tool, "nccl-tests");
  EXPECT_FALSE(o.document.bandwidth.empty());
  EXPECT_EQ(p2p::read_json_file(r.json), nlohmann::json(o.document));
}

TEST(ImportRun, OneBadFileWritesNothing) {
  const p2p::TempDir dir("p2p_import_run");
  ImportRequest r;
  r.files = {import_fixture("nvbandwidth-v0.8-h200.txt"),
             import_fixture("bad-nccl-tests-mangled.txt")};  // a row cut mid-table
  r.json = dir.file("imported.json");
  EXPECT_THROW(run_import(r), p2p::InputError);
  EXPECT_FALSE(fs::exists(r.json));
}

}  // namespace
