// Host thread placement: the thread that enqueues copies (and whose pinned buffers get their
// pages, first-touch, on its NUMA node) runs on the CPUs local to the GPU it drives, as the
// topology snapshot lists them.
#pragma once

#include <string>
#include <vector>

#include "common/cpu_list.hpp"

namespace p2p::bench {

// Pins the calling thread to `cpus` for the scope and restores the previous mask after.
// Never throws: where the mask cannot be applied (CPUs outside a container's cpuset),
// applied() is false and problem() says why, and the run goes on unpinned.
class ScopedCpuAffinity {
 public:
  explicit ScopedCpuAffinity(const std::vector<int>& cpus);
  ~ScopedCpuAffinity();
  ScopedCpuAffinity(const ScopedCpuAffinity&) = delete;
  ScopedCpuAffinity& operator=(const ScopedCpuAffinity&) = delete;
  bool applied() const { return applied_; }
  const std::string& problem() const { return problem_; }

 private:
  bool applied_ = false;
  bool saved_ = false;
  std::string problem_;
  std::vector<unsigned char> previous_;  // cpu_set_t bytes
};

}  // namespace p2p::bench
