// `p2pcheck nccl` and MPI on a host without a GPU (CPU only): the binary, linked with MPI or
// not, still runs alone; `--mpi` where it cannot run says so in one line with its exit code
// (2: built without MPI, 3: built without NCCL or no usable GPU); options that make no sense
// on one side of the MPI line are refused in one line (2).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::run_captured;

std::string exe() { return std::string("'") + P2PCHECK_EXE + "'"; }

long lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// A sweep small enough to finish at once where a GPU happens to be usable.
const char* kTiny =
    " --skip-gate --collectives all_reduce --max-bytes 1K --iters 1 --warmup 0 --samples 1";

TEST(NcclMpiCli, TheBinaryStillRunsAloneWithoutMpi) {
  EXPECT_EQ(run_captured(exe() + " --version").exit_code, 0);
  const auto r = run_captured(exe() + " nccl" + kTiny);
  // 0 where a GPU is usable, else 3 (no GPU, or built without NCCL): never an MPI failure.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.exit_code << ": " << r.err;
  EXPECT_EQ(r.err.find("MPI"), std::string::npos) << r.err;
}

TEST(NcclMpiCli, MpiWhereItCannotRunIsOneLineWithItsExitCode) {
  const auto r = run_captured(exe() + " nccl --mpi" + kTiny);
  if (!P2P_HAVE_MPI) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("built without MPI"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("libopenmpi-dev"), std::string::npos) << r.err;
  } else if (!P2P_HAVE_NCCL) {
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("without NCCL"), std::string::npos) << r.err;
  } else if (r.exit_code != 0) {  // a one-process MPI job: 0 on a GPU host, 3 without one
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("MPI process 0"), std::string::npos) << r.err;
  }
}

TEST(NcclMpiCli, ALauncherWithoutMpiInTheBuildIsRefusedNotRunNTimes) {
  if (P2P_HAVE_MPI) {
    // Faking a launcher's variables would make a real MPI library look for its launcher.
    GTEST_SKIP() << "this build has MPI; the refusal is for builds without it";
  }
  const auto r = run_captured("OMPI_COMM_WORLD_SIZE=4 " + exe() + " nccl" + kTiny);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("OMPI_COMM_WORLD_SIZE=4"), std::string::npos) << r.err;
}

TEST(NcclMpiCli, OptionsOfTheOtherSideAreRefusedInOneLine) {
  for (const char* args :
       {" nccl --rank-per-gpu", " nccl --no-host-pairs", " nccl --mpi --ranks 2",
        " nccl --mpi --rank-processes", " nccl --mpi --compare-p2p-off", " nccl --mpi --jsonl -"}) {
    const auto r = run_captured(exe() + args + kTiny);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
  }
}

}  // namespace
