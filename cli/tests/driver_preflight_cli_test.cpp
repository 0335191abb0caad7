// bench and nccl against a driver that hangs, crashes or fails inside cuInit (the stand-in
// libcuda.so.1 of doctor/tests/fake_driver, found first through LD_LIBRARY_PATH): the built
// executable must end with one line and exit 5 or 3, never hang or crash with the driver.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

namespace fs = std::filesystem;
using p2p::testing::CliResult;

int lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

class DriverPreflight : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { fs::create_symlink(P2P_FAKE_LIBCUDA, dir_ / "libcuda.so.1"); }

  // `cuinit`: P2P_FAKE_CUINIT (hang, crash, or a CUresult).
  CliResult run(const std::string& cuinit) const {
    return p2p::testing::run_captured("LD_LIBRARY_PATH='" + dir_.string() +
                                      "' P2P_FAKE_CUINIT=" + cuinit + " " + P2PCHECK_EXE + " " +
                                      GetParam() + " --skip-gate --init-timeout 1");
  }
  bool built_without(const CliResult& r) const {
    return r.err.find("built without") != std::string::npos;
  }

  p2p::TempDir tmp_{"p2p_fake_driver"};
  fs::path dir_{tmp_.path()};
};

TEST_P(DriverPreflight, AHangInCuInitIsExitFiveWithOneLine) {
  const CliResult r = run("hang");
  if (built_without(r)) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("the CUDA driver hung"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped inside cuInit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p2pcheck doctor"), std::string::npos) << r.err;
}

TEST_P(DriverPreflight, ACrashInCuInitIsExitThreeWithOneLine) {
  const CliResult r = run("crash");
  if (built_without(r)) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("the CUDA driver crashed (SIGSEGV (stopped inside cuInit))"),
            std::string::npos)
      << r.err;
}

// A cuInit that returns an error is safe to meet in the process: the preflight lets it through
// and bench's own check names it, as before.
TEST_P(DriverPreflight, AFailedCuInitIsStillExitThreeWithOneLine) {
  const CliResult r = run("100");
  if (built_without(r)) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cuInit failed: "), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(BenchAndNccl, DriverPreflight, ::testing::Values("bench", "nccl"));

}  // namespace
