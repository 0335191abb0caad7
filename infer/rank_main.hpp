// One rank process of `p2pcheck infer` (the hidden `infer-rank` subcommand), started by
// run_group() with the NCCL unique id on standard input. It sets its own NCCL environment
// (NCCL_P2P_DISABLE for the P2P-off half, NCCL_HOSTID where ranks share a GPU), runs the CUDA
// IPC check, joins the communicator, and per message verifies one all-reduce, then times the
// calls in CUDA graphs, appending one line per message to its results file (rank_merge.hpp).
#pragma once

#include <string>

namespace p2p::infer {

// 0 when every message ran; kExitHang or kExitRuntime when it stopped (its end line says why).
int run_infer_rank(const std::string& job_path, int rank);

}  // namespace p2p::infer
