// Runs the real `p2pcheck bench` on this machine. Without a usable GPU it must exit 3 and say
// why on exactly one line of stderr, with nothing on stdout.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/no_gpu.hpp"

namespace {

struct Ran {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Ran run(const std::string& args) {
  const std::string dir = ::testing::TempDir();
  // ctest may run this file's tests in parallel processes: one file pair per process.
  const std::string tag = std::to_string(::getpid());
  const std::string out = dir + "/p2p_bench_out_" + tag + ".txt", err = dir + "/p2p_bench_err_" + tag + ".txt";
  const std::string cmd = std::string(P2PCHECK_EXE) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Ran r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
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
