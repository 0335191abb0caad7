// Runs the real `p2pcheck bench` on this machine. Without a usable GPU it must exit 3 and say
// why on exactly one line of stderr, with nothing on stdout.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <utility>

#include "bench/measure/no_gpu.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using Ran = p2p::testing::CliResult;

Ran run(const std::string& args) {
  return p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " " + args);
}

TEST(BenchCli, WithoutAGpuExitsThreeWithOneLine) {
  const auto why = p2p::bench::no_gpu_reason(p2p::bench::probe_cuda());
  if (!why) GTEST_SKIP() << "a GPU is usable here: the no-GPU exit path does not apply";
  const Ran r = run("bench");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_EQ(r.err, "p2pcheck: no usable GPU: " + *why + "\n");
}

TEST(BenchCli, BadInputIsReportedBeforeLookingForAGpu) {
  Ran r = run("bench --sizes 12X");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sizes: `12X`"), std::string::npos) << r.err;
  r = run("bench --gpus a");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--gpus"), std::string::npos) << r.err;
  r = run("bench --frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--frobnicate"), std::string::npos) << r.err;
  r = run("bench --samples 0");
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

// Every measuring subcommand takes Google Benchmark's flags and nothing else, and judges them
// (and its gate files) before it looks for a GPU: one line, exit 2, on any host.
TEST(BenchCli, BenchmarkFlagsAndGateFilesAreCheckedFirstByBenchAndNccl) {
  for (const std::string cmd : {"bench", "nccl"}) {
    Ran r = run(cmd + " --benchmark_bogus=1");
    EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
    EXPECT_EQ(r.err,
              "p2pcheck: error: " + cmd + ": unknown or malformed option `--benchmark_bogus=1`\n");
    r = run(cmd + " '--benchmark_filter=(('");
    EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
    EXPECT_EQ(r.err,
              "p2pcheck: error: --benchmark_filter: `((` is not a valid regular expression\n");
    r = run(cmd + " --policy /nonexistent/p2pcheck-policy.json");
    EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("/nonexistent/p2pcheck-policy.json"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const Ran r = run("nccl --frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "p2pcheck: error: nccl: unknown option '--frobnicate' (p2pcheck nccl --help lists the "
            "options; Google Benchmark's flags are passed as --benchmark_NAME=VALUE)\n");
}

// Whatever the command-line parser refuses (a value out of range, an unknown choice, a missing
// argument, no subcommand) is one line on stderr and exit 2.
TEST(BenchCli, ParserErrorsAreOneLineExitTwo) {
  const std::pair<const char*, const char*> cases[] = {
      {"bench --samples 0",
       "p2pcheck: error: --samples: `0` is not a whole number from 1 to 1000 (--help lists the "
       "options)\n"},
      {"nccl --buffers malloc",
       "p2pcheck: error: --buffers: malloc not in {auto,ncclMemAlloc,cudaMalloc} (--help lists the options)\n"},
      {"report", "p2pcheck: error: results is required (--help lists the options)\n"},
      {"",
       "p2pcheck: error: 'p2pcheck' needs a command: doctor, topo, gate, vm, bench, nccl, import, "
       "compare, report, export, judge, hw, check, infer, node, merge, cluster\n"},
  };
  for (const auto& [args, err] : cases) {
    const Ran r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, err) << args;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
  }
  EXPECT_EQ(run("bench --help").exit_code, 0);
}

TEST(BenchCli, ListNeedsNoGpuAndPrintsOneLinePerCase) {
  const Ran r = run("bench --list");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  int n = 0;
  bool saw_staged = false;
  while (std::getline(lines, line)) {
    ++n;
    saw_staged = saw_staged || line.rfind("staged ", 0) == 0;
  }
  EXPECT_GE(n, 15);
  EXPECT_TRUE(saw_staged) << r.out;
}

}  // namespace
