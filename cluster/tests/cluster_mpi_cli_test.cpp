// `p2pcheck cluster` under mpirun with the built executable: four ranks on this machine, each
// standing in for a fixture host (--fixture-host, cluster/tests/fleet_checks.hpp), one of them
// stalling after its gate (P2P_TEST_STALL_RANK). Rank 0 must finish by its deadline with the
// same verdict `merge` gives, and every rank's lines must be on disk. Skips where mpirun is
// missing or the build has no MPI. Runs as root in CI containers: Open MPI wants that said.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cluster/tests/fleet_checks.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "report/tests/export_tools.hpp"

namespace {

using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kHosts = std::string(P2P_SOURCE_DIR) + "/cluster/tests/fixtures/hosts/";

// Bounded twice: mpirun's own --timeout, and timeout(1) should mpirun itself hang.
std::string mpirun(int ranks, const std::string& env) {
  return env +
         " OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 " +
         "timeout -k 10 150 mpirun --oversubscribe --timeout 120 -np " + std::to_string(ranks) +
         " " + kExe;
}

std::string fixture_hosts(std::initializer_list<const char*> names) {
  std::string args;
  for (const char* n : names) args += " --fixture-host " + kHosts + n;
  return args;
}

void require_mpi() {
#if !P2P_HAVE_MPI
  GTEST_SKIP() << "built without MPI (cmake found no MPI): cluster is not available";
#endif
  if (!p2p::testing::have_command("mpirun"))
    GTEST_SKIP() << "mpirun not installed (Debian: openmpi-bin)";
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(ClusterMpiCli, AStalledRankIsNoResultAndTheVerdictIsMerges) {
  require_mpi();
  if (::testing::Test::IsSkipped()) return;
  p2p::TempDir dir;
  const std::string doc = dir.file("cluster.json"), xml = dir.file("cluster.xml"),
                    lines = dir.file("lines");
  const CliResult r =
      p2p::testing::run_captured(mpirun(4, "P2P_TEST_STALL_RANK=1:gate") + " cluster" +
                                 fixture_hosts({"node-a", "node-b", "node-c", "node-d"}) +
                                 " --allow-caveat logical --deadline 20 --lines-dir " + lines +
                                 " --json " + doc + " --junit " + xml);
  // Rank 0 leaves without MPI_Finalize once every output is written (the stalled rank would
  // keep it waiting forever), with the fleet's exit code; mpirun then ends the job.
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "a host rank did not finish by the deadline")) << r.err;
  const auto j = p2p::read_json_file(doc);
  p2p::testing::expect_fleet_verdict(j);
  EXPECT_EQ(j.at("written_by"), "cluster");
  EXPECT_EQ(j.at("ranks"), 4);
  EXPECT_EQ(p2p::testing::host_entry(j, "node-b").at("source"), "rank 1");
  EXPECT_TRUE(contains(r.out, "node-b  NO RESULT")) << r.out;
  const std::string junit = p2p::try_read_text_file(xml).value_or("");
  EXPECT_TRUE(contains(junit, "fleet/host/node-b")) << junit.substr(0, 300);

  // Every rank's own file is on disk, the stalled one's up to its gate, and merge reads them
  // to the same verdict.
  std::string files;
  for (const char* f : {"node-a-rank0", "node-b-rank1", "node-c-rank2", "node-d-rank3"}) {
    const std::string path = lines + "/" + f + ".jsonl";
    EXPECT_TRUE(std::filesystem::exists(path)) << path;
    files += " " + path;
  }
  const std::string merged = dir.file("merged.json");
  const CliResult m = p2p::testing::run_captured(kExe + " merge" + files +
                                                 " --allow-caveat logical --json " + merged);
  EXPECT_EQ(m.exit_code, 1) << m.err;
  p2p::testing::expect_fleet_verdict(p2p::read_json_file(merged));
}

TEST(ClusterMpiCli, RanksOfOneHostRunOneChain) {
  require_mpi();
  if (::testing::Test::IsSkipped()) return;
  p2p::TempDir dir;
  const std::string doc = dir.file("cluster.json");
  // Two ranks on node-a, as a launcher with one task per GPU would start them.
  const CliResult r = p2p::testing::run_captured(
      mpirun(4, "") + " cluster --rank-per-gpu" +
      fixture_hosts({"node-a", "node-a", "node-c", "node-d"}) +
      " --allow-caveat logical --deadline 60 --lines-dir " + dir.file("lines") + " --json " + doc);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // node-c's topology differs
  const auto j = p2p::read_json_file(doc);
  EXPECT_EQ(j.at("ranks"), 4);
  ASSERT_EQ(j.at("hosts").size(), 3u);
  EXPECT_EQ(p2p::testing::host_entry(j, "node-a").at("source"), "rank 0");
  EXPECT_EQ(p2p::testing::host_entry(j, "node-a").at("status"), "pass");
  EXPECT_EQ(p2p::testing::host_entry(j, "node-d").at("source"), "rank 3");
  EXPECT_FALSE(
      std::filesystem::exists(dir.file("lines") + "/node-a-rank1.jsonl"));  // rank 1 only waited
}

}  // namespace
