// A lane is one stream of copies inside a sample: from where, to where, which GPU issues it
// and how (copy engine, SM kernel, or staged through pinned host memory). A case's sample runs
// all its lanes at once, released together by the latch.
#pragma once

#include <string>
#include <vector>

#include "bench/endpoint.hpp"

namespace p2p::bench {

enum class Method {
  kCopyEngine,    // cudaMemcpyPeerAsync / cudaMemcpyAsync on the issuer's stream
  kSm,            // the copy kernel on the issuer, loading from src and storing to dst
  kStaged,        // src GPU -> pinned host bounce buffer -> dst GPU, chunked and pipelined
  kPointerChase,  // latency: the issuer walks a pointer chain held in dst's memory
};

std::string to_string(Method m);  // "copy_engine", "sm", "staged", "pointer_chase"

struct Lane {
  Endpoint src;
  Endpoint dst;
  int issuer = -1;  // CUDA ordinal of the GPU whose stream does the work
  Method method = Method::kCopyEngine;
};

// The GPU that owns the destination memory and therefore verifies it. For host memory that
// is the issuer, reading the host's own RAM through its mapping of the pinned buffer.
int verifying_gpu(const Lane& lane);

}  // namespace p2p::bench
