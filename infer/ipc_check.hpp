// The CUDA IPC check of one rank process (see ipc_merge.hpp for what it proves). The ranks meet
// through files in the job's directory, not through NCCL, so the check runs, and says why a pair
// fails, even where NCCL would not come up; it runs before the communicator forms, as serving
// engines run theirs before they enable their own P2P all-reduce.
//
//   1. clear a buffer of one slot per rank, export it (cudaIpcGetMemHandle), publish the handle
//      as <dir>/ipc<R>.handle;
//   2. for every peer: wait for its handle, map it (cudaIpcOpenMemHandle), fill our slot in it
//      with ipc_pattern(us, peer) from our own GPU, synchronise; report a "write" line;
//   3. publish <dir>/ipc<R>.wrote, wait for every peer's, read our buffer back and report a
//      "read" line per peer: every byte of its slot must be its pattern.
// Every wait has the deadline `timeout`; a peer that misses it is reported, never waited for.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace p2p::infer {

// `report` receives each line (ipc_merge.hpp's to_line) as it is known.
void run_ipc_check(int rank, int nranks, int device, const std::string& dir,
                   std::chrono::duration<double> timeout,
                   const std::function<void(const std::string&)>& report);

}  // namespace p2p::infer
