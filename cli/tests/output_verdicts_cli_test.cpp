// No output may show green where `judge` says FAIL: every results document kept in the tree
// (results/, the worked example) through `judge`, `judge --junit --prom`, `export --junit -`,
// `export --prom -` and `report`, with the built executable, each output's verdict read
// back and held to judge's. Needs no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

namespace fs = std::filesystem;
using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kRoot = P2P_SOURCE_DIR;

// Every results document (schema p2pcheck.bench.run) under results/ and acceptance/tests/.
std::vector<std::string> kept_documents() {
  std::vector<std::string> out;
  for (const char* dir : {"results", "acceptance/tests"})
    for (const auto& e : fs::recursive_directory_iterator(kRoot + "/" + dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".json") continue;
      const std::string text = p2p::read_text_file(e.path().string());
      if (text.find("\"p2pcheck.bench.run\"") != std::string::npos)
        out.push_back(e.path().string());
    }
  std::sort(out.begin(), out.end());
  return out;
}

bool green(const std::string& headline) { return headline.rfind("PASS", 0) == 0; }

// The verdict JUnit carries: its acceptance suite's p2pcheck.verdict property.
std::string junit_verdict(const std::string& xml) {
  static const std::regex property(R"re(<property name="p2pcheck\.verdict" value="([^"]*)")re");
  std::smatch m;
  return std::regex_search(xml, m, property) ? m[1].str() : "";
}

// Whether the JUnit file holds any failure or error.
bool junit_fails(const std::string& xml) {
  return xml.find("<failure") != std::string::npos || xml.find("<error") != std::string::npos;
}

// p2pcheck_run_passed's value: "1", "0", or "" when absent.
std::string prom_passed(const std::string& text) {
  static const std::regex metric(R"(\np2pcheck_run_passed\{[^}]*\} ([01])\n)");
  std::smatch m;
  return std::regex_search(text, m, metric) ? m[1].str() : "";
}

std::string html_verdict(const std::string& html) {
  static const std::regex banner(R"(Verdict: ([A-Z][A-Za-z ]*[a-zA-Z]))");
  std::smatch m;
  return std::regex_search(html, m, banner) ? m[1].str() : "";
}

const std::string kEveryCaveat =
    " --allow-caveat interrupted --allow-caveat shared --allow-caveat logical --allow-caveat "
    "unverified --allow-caveat waived --allow-caveat gate_override";

// Every kept document through judge, export and report, each given the same --allow-caveat
// options (`allow`); returns how many judge failed.
int expect_every_format_agrees(const std::string& allow) {
  const auto documents = kept_documents();
  EXPECT_GE(documents.size(), 40u);
  int failing = 0;
  for (const auto& doc : documents) {
    SCOPED_TRACE(doc);
    const p2p::TempDir dir("p2p_verdicts");
    const std::string junit = dir.file("judge.xml"), prom = dir.file("judge.prom");
    const CliResult j =
        p2p::testing::run_captured(kExe + " judge '" + doc + "' --format json --junit '" + junit +
                                   "' --prom '" + prom + "'" + allow);
    // 0 pass, 1 fail, 4 error, 5 hung: a verdict each (README, exit codes).
    EXPECT_TRUE(j.exit_code == 0 || j.exit_code == 1 || j.exit_code == 4 || j.exit_code == 5)
        << j.err;
    if (j.out.empty()) continue;
    const std::string headline = nlohmann::json::parse(j.out).at("headline").get<std::string>();
    const bool pass = green(headline);
    failing += pass ? 0 : 1;

    const std::string judge_xml = p2p::read_text_file(junit);
    EXPECT_EQ(junit_verdict(judge_xml), headline);
    EXPECT_EQ(junit_fails(judge_xml), !pass);
    EXPECT_EQ(prom_passed(p2p::read_text_file(prom)), pass ? "1" : "0");

    const std::string export_xml = dir.file("export.xml"), export_prom = dir.file("export.prom"),
                      page = dir.file("page.html");
    EXPECT_EQ(p2p::testing::run_captured(kExe + " export '" + doc + "' --junit '" + export_xml +
                                         "' --prom '" + export_prom + "'" + allow)
                  .exit_code,
              0);
    EXPECT_EQ(
        p2p::testing::run_captured(kExe + " report '" + doc + "' --html '" + page + "'" + allow)
            .exit_code,
        0);
    const std::string xml = p2p::read_text_file(export_xml);
    EXPECT_EQ(green(junit_verdict(xml)), pass) << junit_verdict(xml) << " vs judge " << headline;
    if (!pass) EXPECT_TRUE(junit_fails(xml));
    EXPECT_EQ(prom_passed(p2p::read_text_file(export_prom)), pass ? "1" : "0");
    EXPECT_EQ(green(html_verdict(p2p::read_text_file(page))), pass)
        << html_verdict(p2p::read_text_file(page)) << " vs judge " << headline;
  }
  return failing;
}

// As judge does, export and report fail a caveated run (logical GPUs, a shared GPU, ...) as a
// whole run: no format shows the run green where judge does not.
TEST(OutputVerdicts, EveryKeptDocumentShowsJudgesVerdictInEveryFormat) {
  const int failing = expect_every_format_agrees("");
  // The kept runs hold failing ones (SIGTERM, shared GPU, the worked example) and caveated ones:
  // the comparison is not only of green with green.
  EXPECT_GE(failing, 10);
}

// With every caveat allowed, each format shows the run's own verdict, and judge agrees.
TEST(OutputVerdicts, AllowedCaveatsAreAllowedInEveryFormatAlike) {
  const int failing = expect_every_format_agrees(kEveryCaveat);
  EXPECT_GE(failing, 5);
}

// A site's policy reaches every format: a floor no kept figure clears fails the H200 run in
// judge, export (JUnit and Prometheus) and report alike.
TEST(OutputVerdicts, APolicyReachesExportAndReport) {
  const p2p::TempDir dir("p2p_verdicts");
  const std::string policy = dir.file("policy.json");
  p2p::write_text_file_atomically(policy, R"({"min_bandwidth": 500})");
  const std::string doc = kRoot + "/results/h200-vm-2026-12-02/h200-bench.json";
  EXPECT_EQ(
      p2p::testing::run_captured(kExe + " judge '" + doc + "' --policy '" + policy + "'").exit_code,
      1);
  const std::string xml = dir.file("e.xml"), prom = dir.file("e.prom"), page = dir.file("p.html");
  ASSERT_EQ(p2p::testing::run_captured(kExe + " export '" + doc + "' --policy '" + policy +
                                       "' --junit '" + xml + "'")
                .exit_code,
            0);
  EXPECT_EQ(junit_verdict(p2p::read_text_file(xml)), "FAIL");
  ASSERT_EQ(p2p::testing::run_captured(kExe + " export '" + doc + "' --policy '" + policy +
                                       "' --prom '" + prom + "'")
                .exit_code,
            0);
  EXPECT_EQ(prom_passed(p2p::read_text_file(prom)), "0");
  ASSERT_EQ(p2p::testing::run_captured(kExe + " report '" + doc + "' --policy '" + policy +
                                       "' --html '" + page + "'")
                .exit_code,
            0);
  EXPECT_EQ(html_verdict(p2p::read_text_file(page)), "FAIL");
  // A policy where none belongs (a gate decision carries its own verdict) is refused, exit 2.
  const CliResult gate = p2p::testing::run_captured(
      kExe + " gate --input '" + kRoot +
      "/topology/tests/golden/rtxpro6000-lxc.json' --expect-gpus 8 --format json");
  ASSERT_EQ(gate.exit_code, 0) << gate.err;
  p2p::write_text_file_atomically(dir.file("gate.json"), gate.out);
  const CliResult r = p2p::testing::run_captured(kExe + " export '" + dir.file("gate.json") +
                                                 "' --junit - --policy '" + policy + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--policy: judges a results document"), std::string::npos) << r.err;
  // So is a caveat allowed where no run is judged: it would change nothing, silently.
  const CliResult caveat = p2p::testing::run_captured(kExe + " export '" + dir.file("gate.json") +
                                                      "' --junit - --allow-caveat logical");
  EXPECT_EQ(caveat.exit_code, 2) << caveat.err;
  EXPECT_NE(caveat.err.find("--allow-caveat: judges a results document"), std::string::npos)
      << caveat.err;
  const CliResult missing = p2p::testing::run_captured(
      kExe + " report '" + doc + "' --policy /nonexistent/policy.json --html '" +
      dir.file("x.html") + "'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/policy.json"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(dir.file("x.html")));
}

TEST(HwCli, ShowsTheRtxPro6000ServerEditionWithItsLinkPolicyFiguresAndFloors) {
  const CliResult r =
      p2p::testing::run_captured(kExe + " hw show 'RTX PRO 6000 Blackwell Server Edition'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part :
       {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "10de:2bb5",
        "PCIe gen5 x16 (63.0 GB/s one way)", "P2P over PCIe    granted", "published figures",
        "floors derived from them", "allreduce_busbw 8 GPUs",
        "rule: warn below 0.92x the published low end, fail below 0.85x it",
        "https://github.com/voipmonitor/rtx6kpro"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  const CliResult json = p2p::testing::run_captured(kExe + " hw show 10de:2bb5 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("key"), "rtx-pro-6000-server");
  EXPECT_FALSE(j.at("floors").empty());
  for (const auto& f : j.at("figures"))
    EXPECT_EQ(f.at("source").get<std::string>().rfind("http", 0), 0u);
}

TEST(HwCli, ListsEveryModelAndRefusesAnUnknownOneByName) {
  const CliResult list = p2p::testing::run_captured(kExe + " hw list --format json");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_GE(nlohmann::json::parse(list.out).at("models").size(), 40u);
  const CliResult unknown = p2p::testing::run_captured(kExe + " hw show 'Voodoo 5 6000'");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("hw show: 'Voodoo 5 6000' is no model of the knowledge base"),
            std::string::npos)
      << unknown.err;
  EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1) << unknown.err;
  EXPECT_TRUE(unknown.out.empty());
  // "RTX PRO 6000 Blackwell" alone fits three editions: no guess, the candidates named.
  const CliResult several = p2p::testing::run_captured(kExe + " hw show 'RTX PRO 6000 Blackwell'");
  EXPECT_EQ(several.exit_code, 2) << several.out;
  EXPECT_NE(several.err.find("fits several models"), std::string::npos) << several.err;
}

}  // namespace
