// What a bench sweep is asked to measure, as plain data: `bench` and the bench step of the node
// chain (`node`, `cluster`) take the same options, and session/bench_options.hpp turns them into
// bench::BenchOptions for both.
#pragma once

#include <string>

namespace p2p::session {

struct BenchSweepRequest {
  std::string gpus;   // CUDA ordinals, "0,1"; "" = all
  std::string sizes;  // copy sizes, "64M,1G"; "" = bench's sweep
  int samples = 5;
  int warmup_samples = 1;
  int copies = 0;        // per timed sample; 0 = about 2 GiB per sample
  int logical_gpus = 0;  // N logical GPUs placed round-robin on the selected devices
  bool full = false;     // every size for every route
  bool no_affinity = false;
  std::string host_memory = "pinned";  // or "hugepages"
};

}  // namespace p2p::session
