// An NCCL run's figures as heatmap matrices, so that two runs (a VM beside an LXC container, a
// run beside its baseline) can be laid side by side and their change mapped cell by cell, as
// bench's GPU-pair matrices are: busbw by collective and size (one matrix per data type and
// placement), and the sendrecv pairs' busbw between ranks at their largest size. Each cell is
// keyed by doc::figure_key, the name the comparison's checks give it. Pure.
#pragma once

#include <string>
#include <vector>

#include "document/nccl_run.hpp"
#include "report/bench_matrix.hpp"

namespace p2p::report {

// Sizes below this are left out of the collective matrices: there NCCL's time is its latency,
// not the links' bandwidth, and 20-odd columns of them would hide the ones that matter.
constexpr std::uint64_t kNcclMatrixMinBytes = std::uint64_t{1} << 20;

// `section` heads every key for the run without P2P ("p2p_off "), and its matrices' titles.
std::vector<Matrix> nccl_matrices(const doc::NcclRun& run, const std::string& section = "");

}  // namespace p2p::report
