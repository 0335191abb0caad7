// `p2pcheck infer` in a build without NCCL: the plan (--list) works, measuring does not.
#include <iostream>

#include "common/exit_codes.hpp"
#include "session/infer_session.hpp"

namespace p2p::session {

int run_infer_session(const InferRequest&, const infer::InferPlan&) {
  std::cerr << "p2pcheck infer: this p2pcheck was built without NCCL (no CUDA compiler or nccl.h "
               "at build time); --list works without it\n";
  return kExitNoGpu;
}

}  // namespace p2p::session
