// `p2pcheck infer` in a build without NCCL: the plan (--list) works, measuring does not.
#include <iostream>

#include "common/exit_codes.hpp"
#include "infer/host_run.hpp"

namespace p2p::infer {

int run_infer(const InferOptions&, const InferPlan&) {
  std::cerr
      << "p2pcheck infer: this p2pcheck was built without NCCL (no CUDA compiler or nccl.h at build time); "
         "--list works without it\n";
  return kExitNoGpu;
}

}  // namespace p2p::infer
