// mpi::Session through mpirun on this host (CPU only): broadcast, gather, a gather that one rank
// never answers (the others get "no answer" for it and go on), and lines streamed to rank 0 in
// order. Skipped, with the reason, where mpirun cannot start three processes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/testing/run_captured.hpp"

namespace {

bool has_line(const std::string& out, const std::string& line) {
  std::istringstream in(out);
  std::string l;
  while (std::getline(in, l)) {
    if (l == line) return true;
  }
  return false;
}

TEST(MpiSession, ExchangesWithADeadlineAndAStreamInOrder) {
  const std::string mpirun = P2P_MPIEXEC;
  if (mpirun.empty() || p2p::testing::run_captured("'" + mpirun + "' --version").exit_code != 0) {
    GTEST_SKIP() << "no usable mpirun";
  }
  // As root, Open MPI's mpirun refuses to start without these two.
  const auto r =
      p2p::testing::run_captured("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '" +
                                 mpirun + "' --oversubscribe -np 3 '" + P2P_SESSION_PROBE + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  for (int rank : {0, 1, 2}) {
    EXPECT_TRUE(has_line(r.out, std::to_string(rank) + " broadcast from-root")) << r.out;
    EXPECT_TRUE(has_line(r.out, std::to_string(rank) + " done")) << r.out;
  }
  EXPECT_TRUE(has_line(r.out, "0 gathered 0=r0")) << r.out;
  EXPECT_TRUE(has_line(r.out, "0 gathered 2=r2")) << r.out;
  EXPECT_TRUE(has_line(r.out, "0 partial 1=late1")) << r.out;
  EXPECT_TRUE(has_line(r.out, "0 partial 2=<none>")) << r.out;
  // Each sender's lines arrive in the order it posted them.
  for (int source : {1, 2}) {
    const std::string s = std::to_string(source);
    const auto first = r.out.find("0 drained " + s + " line" + s + ".0");
    const auto last = r.out.find("0 drained " + s + " line" + s + ".2");
    ASSERT_NE(first, std::string::npos) << r.out;
    ASSERT_NE(last, std::string::npos) << r.out;
    EXPECT_LT(first, last);
  }
}

}  // namespace
