#include "session/nccl_launch.hpp"

#include "common/error.hpp"

namespace p2p::session {

std::string mpi_launch(const NcclRequest& r, const mpi::Environment& environment) {
  if (r.mpi) return "--mpi";
  return mpi::launch_evidence(environment);
}

std::string refusal_without_mpi(const std::string& launch, bool built_with_mpi) {
  if (launch.empty() || built_with_mpi) return "";
  return (launch == "--mpi"
              ? std::string("p2pcheck nccl --mpi: this p2pcheck")
              : "p2pcheck nccl: started by an MPI launcher (" + launch + "), but this p2pcheck") +
         " was built without MPI; " + mpi::kHowToGetMpi + "\n";
}

void check_mpi_options(const NcclRequest& r, const std::string& launch) {
  if (launch.empty()) {
    if (r.rank_per_gpu)
      throw InputError("--rank-per-gpu: only with --mpi (one GPU per MPI process)");
    if (r.no_host_pairs)
      throw InputError("--no-host-pairs: only with --mpi (host pairs are across MPI hosts)");
    return;
  }
  const std::string why =
      " with MPI (" + launch + "): ranks are the job's processes and their GPUs";
  if (r.ranks != 0) throw InputError("--ranks cannot be used" + why);
  if (r.rank_processes) throw InputError("--rank-processes cannot be used" + why);
  if (r.compare_p2p_off)
    throw InputError("--compare-p2p-off cannot be used" + why + " (run the job twice)");
  if (r.jsonl == "-")
    throw InputError("--jsonl: with MPI every process writes its own file; give a path, not -");
}

}  // namespace p2p::session
