// `p2pcheck cluster`, run under mpirun/srun with one rank per host (or, with --rank-per-gpu,
// one per GPU: ranks are grouped by host name and the lowest rank of each host runs its chain).
// Each host rank runs the node chain, writes its lines to its own file in --lines-dir (a killed
// job leaves them there for `merge`) and sends them to rank 0 as they happen; rank 0 gathers
// them until every host is done or --deadline passes (a stalled host is "no result" with its
// last completed step) and merges them exactly as `merge` does.
//
// Exit code (mpirun's, which is rank 0's): merge's (0 all pass, 1 otherwise, 2 bad input). When
// a host rank never finished, rank 0 writes every output and leaves without MPI_Finalize (the
// stalled rank would keep it waiting), and the launcher ends the job. Built without MPI, the
// command says how to get it and exits 2. The MPI exchanges are the shared session's (mpi/).
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_cluster_command(CLI::App& root);

}  // namespace p2p::cli
