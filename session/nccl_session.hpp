// `p2pcheck nccl` from the request to the exit code: MPI or one host (session/nccl_launch.hpp),
// the sweep handed to Google Benchmark before any GPU work, the cuInit preflight, the gate, the
// sharing check, the P2P-off half of --compare-p2p-off in a child process that gets the sweep
// as a serialised options object, and the outputs (session/nccl_outputs.hpp). In a build
// without NCCL it refuses in one line (exit 3, or 2 for options that are bad in every build).
#pragma once

#include <string>

#include "session/nccl_request.hpp"

namespace p2p::session {

// The run the user started, or the P2P-off half when `r.p2p_off_child` (its sweep read from
// `r.options_file`, its document written to `r.json`).
int run_nccl_session(const NcclRequest& r);

// One rank process of `nccl --rank-processes` (`p2pcheck nccl-rank`): the job its parent wrote
// to `options_path`, as rank `rank`.
int run_nccl_rank(const std::string& options_path, int rank);

}  // namespace p2p::session
