// The options of `p2pcheck nccl` across the processes of an MPI job; the run itself is
// session/nccl_mpi_session.hpp. Declared in every build: a build without MPI refuses them in
// one line (exit 2) rather than not knowing them.
#include "cli/nccl_command.hpp"

namespace p2p::cli {

void add_nccl_mpi_options(CLI::App* app, session::NcclRequest& o) {
  app->add_flag(
      "--mpi", o.mpi,
      "one communicator across the processes of an MPI job (mpirun, srun --mpi=pmix), one host or many; "
      "implied when a launcher started this process (OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_SIZE is set)");
  app->add_flag(
      "--rank-per-gpu", o.rank_per_gpu,
      "MPI: every process drives one GPU, the one of its local rank (OMPI_COMM_WORLD_LOCAL_RANK, "
      "SLURM_LOCALID), or the local rank's entry of --gpus; default: every process drives every visible GPU");
  app->add_flag(
      "--no-host-pairs", o.no_host_pairs,
      "MPI: skip the host-pair rounds (send/recv between every two hosts at --max-bytes)");
}

}  // namespace p2p::cli
