// `p2pcheck cluster` with MPI (built only where MPI was found): the session, the node chain of
// each host rank, the gather on rank 0 and the shared merge. cli/cluster_command.hpp documents
// the command and its exit codes.
#pragma once

#include "cluster/cluster_options.hpp"

namespace p2p::cluster {

int run_cluster_under_mpi(const ClusterOptions& o);

}  // namespace p2p::cluster
