// The --jsonl envelope of a measuring run: run_start first, the gate's lines, what the run
// adds, run_end with the exit code; nothing at all without a path; refused when stdout is
// already Google Benchmark's.
#include "session/run_log.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace {

using p2p::session::RunLog;

class RunLogFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/p2p_run_log_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    ::unlink(path().c_str());
    ::rmdir(dir_.c_str());
  }
  std::string path() const { return dir_ + "/run.jsonl"; }
  std::vector<nlohmann::json> lines() const {
    std::vector<nlohmann::json> out;
    std::istringstream in(p2p::try_read_text_file(path()).value_or(""));
    for (std::string l; std::getline(in, l);) out.push_back(nlohmann::json::parse(l));
    return out;
  }
  std::string dir_;
};

p2p::session::TopologyAndGate blocked_gate() {
  p2p::topo::GateDecision d;
  d.passed = false;
  p2p::topo::GateReason r;
  r.rule = "policy.min_gpus";
  r.verdict = p2p::topo::GateVerdict::kBlock;
  r.message = "1 GPU, the policy asks for 8";
  d.reasons.push_back(r);
  p2p::session::TopologyAndGate tg;
  tg.gate.reasons = d;
  tg.blocked = true;
  return tg;
}

TEST_F(RunLogFile, StartGateLinesAndEndInOrder) {
  {
    RunLog log(path(), "bench", "h200-vm", {});
    EXPECT_TRUE(log.active());
    EXPECT_FALSE(log.to_stdout());
    log.gate(blocked_gate());
    EXPECT_EQ(log.end(1, {{"gate", "block"}}), 1);
  }
  const auto got = lines();
  ASSERT_EQ(got.size(), 4u);
  for (const auto& l : got) {
    EXPECT_EQ(l.at("schema"), "p2pcheck.jsonl");
    EXPECT_EQ(l.at("command"), "bench");
    EXPECT_EQ(l.at("host"), "h200-vm");
  }
  EXPECT_EQ(got[0].at("kind"), "run_start");
  EXPECT_EQ(got[0].at("record").at("tool_version"), P2P_VERSION);
  EXPECT_EQ(got[1].at("kind"), "gate_reason");
  EXPECT_EQ(got[2].at("kind"), "gate");
  EXPECT_EQ(got[2].at("record").at("passed"), false);
  EXPECT_EQ(got[3].at("kind"), "run_end");
  EXPECT_EQ(got[3].at("record"), (nlohmann::json{{"gate", "block"}, {"exit_code", 1}}));
}

TEST_F(RunLogFile, AGateThatDidNotRunWritesNoGateLines) {
  {
    RunLog log(path(), "nccl", "h200-vm", {});
    log.gate(p2p::session::TopologyAndGate{});  // the P2P-off half: judged by the parent
    log.write({{"kind", "anything"}});
    log.end(0, {{"results", 3}});
  }
  const auto got = lines();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1], (nlohmann::json{{"kind", "anything"}}));
  EXPECT_EQ(got[2].at("record").at("exit_code"), 0);
  EXPECT_EQ(got[2].at("record").at("results"), 3);
}

TEST(RunLog, WithoutAPathItWritesNothingAndPassesTheCodeOn) {
  RunLog log("", "bench", "h", {"--benchmark_format=json"});
  EXPECT_FALSE(log.active());
  EXPECT_FALSE(log.to_stdout());
  log.write({{"kind", "x"}});
  EXPECT_EQ(log.end(143, {}), 143);
}

TEST(RunLog, StdoutIsRefusedWhenGoogleBenchmarkOwnsIt) {
  try {
    RunLog log("-", "nccl", "h", {"--benchmark_format=json"});
    FAIL() << "--jsonl - was accepted beside --benchmark_format";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "--jsonl - and --benchmark_format both write to standard output: give --jsonl a file");
  }
}

TEST(RunLog, AnUnwritablePathFailsBeforeAnyWork) {
  EXPECT_THROW(RunLog("/nonexistent-dir/run.jsonl", "bench", "h", {}), p2p::InputError);
}

}  // namespace
