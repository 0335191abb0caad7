// A lane is one stream of copies inside a sample: from where, to where, which GPU issues it
// and how (its Method: copy engine, SM kernel, staged through pinned host memory, or a latency
// walk; see methods/method_table.hpp). A case's sample runs all its lanes at once, released
// together by the latch.
#pragma once

#include <string>
#include <vector>

#include "bench/endpoint.hpp"
#include "bench/measure/methods/method_table.hpp"

namespace p2p::bench {

std::string to_string(Method m);  // the method's word: "copy_engine", "sm", "staged", ...

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
