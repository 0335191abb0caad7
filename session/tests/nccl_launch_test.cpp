// One host or one process of an MPI job, and the options refused on each side of that line.
#include "session/nccl_launch.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace {

using p2p::session::check_mpi_options;
using p2p::session::mpi_launch;
using p2p::session::NcclRequest;
using p2p::session::refusal_without_mpi;

TEST(NcclLaunch, MpiComesFromTheFlagOrALaunchersVariables) {
  NcclRequest r;
  EXPECT_EQ(mpi_launch(r, {}), "");
  EXPECT_EQ(mpi_launch(r, {{"HOME", "/root"}}), "");
  EXPECT_EQ(mpi_launch(r, {{"OMPI_COMM_WORLD_SIZE", "4"}}), "OMPI_COMM_WORLD_SIZE=4");
  r.mpi = true;
  EXPECT_EQ(mpi_launch(r, {{"OMPI_COMM_WORLD_SIZE", "4"}}), "--mpi");
}

TEST(NcclLaunch, ABuildWithoutMpiRefusesAJobInOneLine) {
  EXPECT_EQ(refusal_without_mpi("", false), "");
  EXPECT_EQ(refusal_without_mpi("--mpi", true), "");
  const std::string flag = refusal_without_mpi("--mpi", false);
  EXPECT_EQ(flag.rfind("p2pcheck nccl --mpi: this p2pcheck was built without MPI; ", 0), 0u)
      << flag;
  const std::string launcher = refusal_without_mpi("PMIX_RANK=0", false);
  EXPECT_EQ(
      launcher.rfind(
          "p2pcheck nccl: started by an MPI launcher (PMIX_RANK=0), but this p2pcheck was built "
          "without MPI; ",
          0),
      0u)
      << launcher;
  for (const std::string& line : {flag, launcher}) {
    EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
    EXPECT_NE(line.find("libopenmpi-dev"), std::string::npos) << line;
  }
}

void expect_refused(const NcclRequest& r, const std::string& launch, const std::string& message) {
  try {
    check_mpi_options(r, launch);
    ADD_FAILURE() << "accepted: " << message;
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(NcclLaunch, MpiOptionsAloneAreRefused) {
  NcclRequest r;
  EXPECT_NO_THROW(check_mpi_options(r, ""));
  r.rank_per_gpu = true;
  expect_refused(r, "", "--rank-per-gpu: only with --mpi (one GPU per MPI process)");
  r = NcclRequest{};
  r.no_host_pairs = true;
  expect_refused(r, "", "--no-host-pairs: only with --mpi (host pairs are across MPI hosts)");
}

TEST(NcclLaunch, OneHostOptionsUnderMpiAreRefused) {
  const std::string why = " with MPI (--mpi): ranks are the job's processes and their GPUs";
  NcclRequest r;
  r.rank_per_gpu = true;
  r.no_host_pairs = true;
  EXPECT_NO_THROW(check_mpi_options(r, "--mpi"));
  r.ranks = 2;
  expect_refused(r, "--mpi", "--ranks cannot be used" + why);
  r = NcclRequest{};
  r.rank_processes = true;
  expect_refused(r, "--mpi", "--rank-processes cannot be used" + why);
  r = NcclRequest{};
  r.compare_p2p_off = true;
  expect_refused(r, "--mpi", "--compare-p2p-off cannot be used" + why + " (run the job twice)");
  r = NcclRequest{};
  r.jsonl = "-";
  expect_refused(r, "--mpi",
                 "--jsonl: with MPI every process writes its own file; give a path, not -");
  r.jsonl = "/tmp/lines.jsonl";
  EXPECT_NO_THROW(check_mpi_options(r, "--mpi"));
}

}  // namespace
