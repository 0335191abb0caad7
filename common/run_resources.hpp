// What a run cost: wall time since it started and the peak resident memory of the process and
// of its children (rank processes, probes). Recorded in every results document so that the
// acceptance-time and memory figures a fleet plans with come from the runs themselves.
#pragma once

#include <chrono>
#include <cstdint>

namespace p2p {

struct RunResources {
  double wall_s = 0;
  std::uint64_t peak_rss_bytes = 0;  // the larger of this process's and its largest reaped child's
};

class RunClock {
 public:
  RunClock() : start_(std::chrono::steady_clock::now()) {}
  RunResources now() const;

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace p2p
