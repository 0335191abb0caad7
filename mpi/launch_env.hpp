// What the environment says about an MPI launch, before MPI is initialised. Pure functions of
// the variables, so the CPU tests check every launcher without one.
//
// A process counts as started by an MPI launcher when one of these is set (checked in this
// order, the first found is named as the evidence):
//   OMPI_COMM_WORLD_SIZE  Open MPI's mpirun/mpiexec (and srun with Open MPI's own PMIx)
//   PMIX_RANK             any PMIx launcher: srun --mpi=pmix, Open MPI 5's prterun
//   PMI_SIZE              PMI-1/PMI-2 launchers: srun --mpi=pmi2, MPICH's Hydra mpiexec
// SLURM_PROCID alone is not evidence: a plain `srun p2pcheck ...` without an MPI plugin starts
// independent tasks that MPI_Init would turn into N separate one-rank jobs.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace p2p::mpi {

using Environment = std::map<std::string, std::string>;

// This process's environment as a map.
Environment process_environment();

// "NAME=value" of the first launcher variable present, "" when none.
std::string launch_evidence(const Environment& env);

// This process's rank among those of its host, as the launcher numbered them:
// OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), SLURM_LOCALID (srun), MPI_LOCALRANKID (Hydra),
// PMIX_LOCAL_RANK. nullopt when none is set; `from` (if given) receives the variable's name.
// A value that is not a non-negative integer is skipped, as if unset.
std::optional<int> launcher_local_rank(const Environment& env, std::string* from = nullptr);

// The file rank `rank` writes when every rank is given the same path (hosts may share a file
// system): "run.jsonl" -> "run.rank3.jsonl", "out/run" -> "out/run.rank3". "-" stays "-".
std::string per_rank_path(const std::string& path, int rank);

// How to get MPI, for the one line a build without it prints.
extern const char* const kHowToGetMpi;

}  // namespace p2p::mpi
