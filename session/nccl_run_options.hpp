// The sweep a `p2pcheck nccl` process runs, as nccl::RunOptions: from the request for the run
// the user started, and for the P2P-off half of --compare-p2p-off the same sweep handed over as
// a serialised options object (nccl/run/run_options_json.hpp), never rebuilt from flags. NCCL
// builds only.
#pragma once

#include <string>

#include "nccl/run/runner.hpp"
#include "session/nccl_request.hpp"

namespace p2p::session {

// The request's sweep, checked (InputError for a bad collective, type, size range or
// --benchmark_* flag) before anything starts.
nccl::RunOptions run_options_from_request(const NcclRequest& r);

// What the P2P-off half runs: the same sweep with NCCL_P2P_DISABLE=1, NCCL's log beside the
// parent's (`nccl_log` + ".p2p-off"; "" = a temporary file), and without --benchmark_format
// (the child's standard output is discarded).
nccl::RunOptions p2p_off_options(const nccl::RunOptions& parent, const std::string& nccl_log);

// The P2P-off half's side: the sweep its parent wrote to `path`, with P2P disabled.
nccl::RunOptions read_p2p_off_options(const std::string& path);

}  // namespace p2p::session
