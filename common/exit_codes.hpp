// Exit codes shared by every subcommand; README.md ("Exit codes") documents them.
#pragma once

namespace p2p {

enum ExitCode : int {
  kExitOk = 0,        // success: gate passed, doctor healthy, every transfer verified
  kExitFailed = 1,    // a verdict against the host: gate blocked, doctor fail, verification or
                      // threshold failure
  kExitBadInput = 2,  // usage error, missing/malformed file, bad policy
  kExitNoGpu = 3,     // no usable GPU: no driver, cuInit failed, no devices, built without CUDA
  kExitRuntime = 4,   // an unexpected library failure (CUDA/NCCL/hwloc/IO) outside any one case
  kExitHang = 5,      // a transfer or collective exceeded its timeout
  kExitBusy = 6,      // --exclusive: another process or p2pcheck run is on a GPU to be measured
};

}  // namespace p2p
