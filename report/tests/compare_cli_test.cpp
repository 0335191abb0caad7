// Runs the real `p2pcheck compare` on the H200 run kept in results/ (a real capture).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::CliResult;

std::string slurp(const std::string& path) { return p2p::try_read_text_file(path).value_or(""); }

CliResult compare(const std::string& args) {
  return p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " compare " + args);
}

const std::string kRun =
    std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";

TEST(CompareCli, ARunAgainstItselfPasses) {
  const CliResult r = compare(kRun + " " + kRun);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(": 0 regressed, 0 lost, 0 missing,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\np2pcheck compare: PASS"), std::string::npos) << r.out;
}

// The worked example (docs/acceptance.md): gpu5's slot trained at x8. Every reason names gpu5,
// and judge and compare say so on their first lines, before the reasons and the table.
TEST(CompareCli, TheWorkedExampleNamesGpu5AsTheSuspectFirst) {
  const std::string dir = std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/";
  const CliResult c = compare(dir + "rtxpro6000-healthy.json " + dir + "rtxpro6000-gpu5-x8.json");
  EXPECT_EQ(c.exit_code, 1) << c.err;
  EXPECT_EQ(c.out.find("suspect: gpu5 in 38 of 38 reasons"),
            c.out.find('\n', c.out.find("run:")) + 1)
      << "the line after baseline: and run:\n"
      << c.out;
  // The table's 38 rows are not listed again below it, nor the suspect said twice.
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = c.out.find(what); at != std::string::npos; at = c.out.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("suspect: gpu5"), 1u) << c.out;
  EXPECT_EQ(count("ce_unidir_write gpu1->gpu5 256MiB"), 1u) << c.out;
  EXPECT_EQ(c.out.find("reasons, most important first"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("\n38 reason(s) are the rows of the table above, not repeated here\n"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("\np2pcheck compare: FAIL — compare ce_bidir gpu0->gpu5 sum 256MiB"),
            std::string::npos);
  const CliResult j = p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " judge " + dir +
                                                 "rtxpro6000-gpu5-x8.json");
  EXPECT_EQ(j.exit_code, 1) << j.err;
  const auto suspect = j.out.find("suspect: gpu5 in 69 of 69 reasons");
  ASSERT_NE(suspect, std::string::npos) << j.out;
  EXPECT_LT(suspect, j.out.find("reasons, most important first")) << j.out;
  // The JSON of both says it too, with each GPU's own outcome, as dcgmi diag gives one per GPU.
  for (const std::string command : {"judge " + dir + "rtxpro6000-gpu5-x8.json --format json",
                                    "compare " + dir + "rtxpro6000-healthy.json " + dir +
                                        "rtxpro6000-gpu5-x8.json --format json"}) {
    const CliResult r = p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " " + command);
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("suspect").at("gpu"), "gpu5") << command;
    ASSERT_EQ(doc.at("gpus").size(), 8u) << command;
    for (const auto& g : doc.at("gpus"))
      EXPECT_EQ(g.at("outcome"), g.at("gpu") == "gpu5" ? "fail" : "pass") << command << g.dump();
  }
}

TEST(CompareCli, ASlowerRunFailsAndNamesTheFigure) {
  nlohmann::json doc = nlohmann::json::parse(slurp(kRun));
  for (auto& b : doc["bandwidth"]) {
    if (b["case"] == "d2h_ce" && b["bytes"] == 1073741824)
      b["median_gbps"] = b["median_gbps"].get<double>() * 0.8;
  }
  const p2p::TempDir tmp("p2p_compare");
  const std::string slower = tmp.file("slower.json");
  std::ofstream(slower) << doc.dump();
  const CliResult r = compare(kRun + " " + slower + " --format json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("regressions"), 1);
  bool found = false;
  for (const auto& f : j.at("figures")) {
    if (f.at("figure") == "d2h_ce gpu0->host 1GiB") {
      found = true;
      EXPECT_EQ(f.at("verdict"), "regressed");
      EXPECT_NEAR(f.at("change_pct").get<double>(), -20.0, 1e-6);
    }
  }
  EXPECT_TRUE(found);
}

TEST(CompareCli, WrongDocumentIsOneLineExitTwo) {
  const std::string facts =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-facts.json";
  const CliResult r = compare(kRun + " " + facts);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "p2pcheck: error: " + facts +
                ": schema `p2pcheck.doctor.facts` where `p2pcheck.bench.run` was expected\n");
  EXPECT_EQ(r.out, "");
  const CliResult missing = compare(kRun + " /nonexistent/run.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err,
            "p2pcheck: error: /nonexistent/run.json: cannot read: No such file or directory\n");
}

// The NCCL document of the same H200 run: compared with itself nothing moves; against bench's
// document it is refused, since nothing in one could be judged against the other.
TEST(CompareCli, NcclDocumentsCompareAndDoNotMixWithBench) {
  const std::string nccl =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-nccl.json";
  const CliResult same = compare(nccl + " " + nccl + " --min-bytes 2M --format json");
  EXPECT_EQ(same.exit_code, 0) << same.err;
  const nlohmann::json j = nlohmann::json::parse(same.out);
  EXPECT_EQ(j.at("regressions"), 0);
  int judged = 0;
  for (const auto& f : j.at("figures")) {
    const std::string key = f.at("figure");
    ASSERT_EQ(key.rfind("nccl ", 0), 0u) << key;
    if (f.at("verdict") == "same") ++judged;
  }
  EXPECT_GT(judged, 0);  // sizes of 2 MiB and more, every operation
  const CliResult mixed = compare(kRun + " " + nccl);
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_EQ(mixed.err,
            "p2pcheck: error: compare: the baseline was written by `p2pcheck bench`, the run by "
            "`p2pcheck nccl`; compare documents of the same kind\n");
}

// `p2pcheck report`: the page lands beside the results (run.json -> run.html) or where --html
// says; a document it cannot read is one line, exit 2, and no page.
TEST(ReportCli, WritesThePageAndRefusesWhatItCannotRead) {
  const p2p::TempDir tmp("p2p_report");
  const std::string& dir = tmp.path();
  ASSERT_EQ(std::system(("cp " + kRun + " " + dir + "/run.json").c_str()), 0);
  CliResult r =
      p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " report " + dir + "/run.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "p2pcheck report: wrote " + dir + "/run.html\n");
  EXPECT_NE(slurp(dir + "/run.html").find("<h1>p2pcheck bench report: vm</h1>"), std::string::npos);
  r = p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " report " + dir +
                                 "/run.json --html -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u);
  const std::string facts =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-facts.json";
  r = p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " report " + facts + " --html " + dir +
                                 "/facts.html");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "p2pcheck: error: " + facts +
                ": schema `p2pcheck.doctor.facts` where `p2pcheck.bench.run` was expected\n");
  EXPECT_TRUE(slurp(dir + "/facts.html").empty())
      << "a page was written for a document that could not be read";
}

}  // namespace
