// The P2P-off half of --compare-p2p-off. NCCL reads NCCL_P2P_DISABLE once per process and
// caches it (graph/paths.cc keeps it in a static), so setting it before a second communicator
// in the same process changes nothing; the same sweep therefore runs in a child process of
// this executable, started before this process touches NCCL, and hands back its report file.
#pragma once

#include <string>
#include <vector>

#include "document/nccl_run.hpp"

namespace p2p::nccl {

// Runs /proc/self/exe with `args` plus `--json <temp file>` (the caller includes the flag
// that makes the child disable P2P), standard output discarded, standard error shared (its
// progress lines). Returns the child's run. std::runtime_error when it could not start or
// ended other than 0 (ok), 1 (verdict) or 5 (hang).
doc::NcclRun run_in_child_process(const std::vector<std::string>& args);

}  // namespace p2p::nccl
