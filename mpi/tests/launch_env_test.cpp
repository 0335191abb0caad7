#include "mpi/launch_env.hpp"

#include <gtest/gtest.h>

namespace p2p::mpi {
namespace {

TEST(LaunchEvidence, NamesTheLauncherVariable) {
  EXPECT_EQ(launch_evidence({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "1"}}),
            "OMPI_COMM_WORLD_SIZE=4");
  EXPECT_EQ(launch_evidence({{"PMIX_RANK", "0"}}), "PMIX_RANK=0");
  EXPECT_EQ(launch_evidence({{"PMI_SIZE", "16"}}), "PMI_SIZE=16");
  // Open MPI 5 sets both; the Open MPI variable is named first.
  EXPECT_EQ(launch_evidence({{"PMIX_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "8"}}),
            "OMPI_COMM_WORLD_SIZE=8");
}

TEST(LaunchEvidence, PlainSrunAndPlainShellAreNotMpi) {
  EXPECT_EQ(launch_evidence({}), "");
  EXPECT_EQ(launch_evidence({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"}, {"SLURM_LOCALID", "3"}}),
            "");
}

TEST(LauncherLocalRank, ReadsEachLauncherAndSaysWhich) {
  std::string from;
  EXPECT_EQ(launcher_local_rank({{"OMPI_COMM_WORLD_LOCAL_RANK", "3"}}, &from), 3);
  EXPECT_EQ(from, "OMPI_COMM_WORLD_LOCAL_RANK");
  EXPECT_EQ(launcher_local_rank({{"SLURM_LOCALID", "7"}}, &from), 7);
  EXPECT_EQ(from, "SLURM_LOCALID");
  EXPECT_EQ(launcher_local_rank({{"MPI_LOCALRANKID", "1"}}, &from), 1);
  EXPECT_EQ(launcher_local_rank({{"PMIX_LOCAL_RANK", "0"}}, &from), 0);
  EXPECT_EQ(from, "PMIX_LOCAL_RANK");
}

TEST(LauncherLocalRank, OpenMpiWinsAndGarbageIsSkipped) {
  EXPECT_EQ(launcher_local_rank({{"OMPI_COMM_WORLD_LOCAL_RANK", "2"}, {"SLURM_LOCALID", "5"}}), 2);
  EXPECT_EQ(launcher_local_rank({{"OMPI_COMM_WORLD_LOCAL_RANK", "x"}, {"SLURM_LOCALID", "5"}}), 5);
  EXPECT_EQ(launcher_local_rank({{"SLURM_LOCALID", "-1"}}), std::nullopt);
  EXPECT_EQ(launcher_local_rank({{"SLURM_LOCALID", ""}}), std::nullopt);
  EXPECT_EQ(launcher_local_rank({}), std::nullopt);
}

TEST(PerRankPath, InsertsTheRankBeforeTheExtension) {
  EXPECT_EQ(per_rank_path("run.jsonl", 3), "run.rank3.jsonl");
  EXPECT_EQ(per_rank_path("/tmp/out/run.jsonl", 0), "/tmp/out/run.rank0.jsonl");
  EXPECT_EQ(per_rank_path("out.d/run", 12), "out.d/run.rank12");
  EXPECT_EQ(per_rank_path(".hidden", 1), ".hidden.rank1");
  EXPECT_EQ(per_rank_path("-", 5), "-");
}

}  // namespace
}  // namespace p2p::mpi
