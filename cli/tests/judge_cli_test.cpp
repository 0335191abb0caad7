// `p2pcheck judge`: a kept document judged again under a user's policy, with the built
// executable on the kept H200 run (results/h200-vm-2026-12-02/h200-bench.json, one GPU, host
// links at 52.9 and 55.3 GB/s). Needs no GPU.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kRun =
    std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";

CliResult judge(const std::string& args) {
  return p2p::testing::run_captured(kExe + " judge " + args);
}

std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

std::string policy_file(const p2p::TempDir& dir, const std::string& json) {
  const std::string path = dir.file("policy.json");
  p2p::write_text_file_atomically(path, json);
  return path;
}

TEST(JudgeCli, AFloorAboveTheHostLinksFailsNamingTheFigureAndTheFloor) {
  const p2p::TempDir dir;
  const CliResult r = judge(kRun + " --policy " + policy_file(dir, R"({"min_bandwidth": 60})"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(last_line(r.out).rfind("p2pcheck judge: FAIL", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("h2d_ce"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("60"), std::string::npos) << r.out;
}

// A floor every figure clears adds only passing checks: the outcome and the reasons are the
// default policy's.
TEST(JudgeCli, AFloorEveryFigureClearsGivesTheDefaultVerdict) {
  const p2p::TempDir dir;
  const CliResult by_default = judge(kRun + " --format json");
  const CliResult low_floor =
      judge(kRun + " --format json --policy " + policy_file(dir, R"({"min_bandwidth": 1})"));
  ASSERT_EQ(low_floor.exit_code, by_default.exit_code) << low_floor.out << by_default.out;
  const auto a = nlohmann::json::parse(by_default.out), b = nlohmann::json::parse(low_floor.out);
  EXPECT_EQ(a.at("outcome"), b.at("outcome"));
  EXPECT_EQ(a.at("reasons"), b.at("reasons"));
  EXPECT_GT(b.at("checks").size(), a.at("checks").size()) << "the floor judged nothing";
  EXPECT_NE(judge(kRun).out.find("the default acceptance policy"), std::string::npos);
}

TEST(JudgeCli, FewerGpusThanExpectedFail) {
  const CliResult r = judge(kRun + " --expect-gpus 8");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("8"), std::string::npos) << r.out;
  EXPECT_EQ(last_line(r.out).rfind("p2pcheck judge: FAIL", 0), 0u) << r.out;
}

// Eight logical GPUs on one H200 measure the tool, not links: `judge` passed that run where
// `compare` and `merge` fail it. It fails here too, unless --allow-caveat logical accepts it.
TEST(JudgeCli, ACaveatedRunIsNotAWholeRunUnlessTheCaveatIsAllowed) {
  const std::string logical =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-one-gpu/bench-logical8.json";
  const CliResult r = judge(logical);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(last_line(r.out).rfind("p2pcheck judge: FAIL — caveat logical: the run is logical (8 "
                                   "logical GPUs on 1 device",
                                   0),
            0u)
      << r.out;
  EXPECT_NE(last_line(r.out).find("it cannot pass as a whole run (--allow-caveat logical "
                                  "accepts it)"),
            std::string::npos)
      << r.out;
  const CliResult allowed = judge(logical + " --allow-caveat logical");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  EXPECT_EQ(last_line(allowed.out).rfind("p2pcheck judge: PASS with warnings", 0), 0u)
      << allowed.out;
  EXPECT_EQ(judge(kRun).exit_code, 0) << "a run without a caveat is judged as before";
}

TEST(JudgeCli, JsonIsTheVerdictObject) {
  const p2p::TempDir dir;
  const CliResult r =
      judge(kRun + " --format json --policy " + policy_file(dir, R"({"min_bandwidth": 60})"));
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("outcome"), "fail") << r.out;
  EXPECT_FALSE(j.at("checks").empty()) << r.out;
}

TEST(JudgeCli, TheDocumentIsReadNeverWritten) {
  const p2p::TempDir dir;
  const std::string copy = dir.file("run.json");
  const std::string before = p2p::read_text_file(kRun);
  p2p::write_text_file_atomically(copy, before);
  const CliResult r =
      judge(copy + " --expect-gpus 8 --policy " + policy_file(dir, R"({"min_bandwidth": 60})"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(p2p::read_text_file(copy), before);
}

TEST(JudgeCli, BadInputIsOneLineExitTwo) {
  const p2p::TempDir dir;
  for (const std::string& args :
       {dir.file("absent.json"), kRun + " --policy " + policy_file(dir, R"({"min_bandwidht": 5})"),
        kRun + " --expect-gpus 0",
        std::string(P2P_SOURCE_DIR) + "/results/policies/default.json"}) {
    const CliResult r = judge(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
  }
}

}  // namespace
