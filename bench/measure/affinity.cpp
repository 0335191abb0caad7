#include "bench/measure/affinity.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>

namespace p2p::bench {

ScopedCpuAffinity::ScopedCpuAffinity(const std::vector<int>& cpus) {
  if (cpus.empty()) {
    problem_ = "no local CPUs known for this GPU";
    return;
  }
  cpu_set_t old_mask;
  CPU_ZERO(&old_mask);
  if (sched_getaffinity(0, sizeof(old_mask), &old_mask) != 0) {
    problem_ = std::string("sched_getaffinity: ") + std::strerror(errno);
    return;
  }
  previous_.assign(reinterpret_cast<unsigned char*>(&old_mask),
                   reinterpret_cast<unsigned char*>(&old_mask) + sizeof(old_mask));
  saved_ = true;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (int c : cpus) CPU_SET(c, &mask);
  // Only CPUs this process may use: inside a container the GPU's local CPUs may be elsewhere.
  CPU_AND(&mask, &mask, &old_mask);
  if (CPU_COUNT(&mask) == 0) {
    problem_ = "none of the GPU's local CPUs is available to this process";
    return;
  }
  if (sched_setaffinity(0, sizeof(mask), &mask) != 0) {
    problem_ = std::string("sched_setaffinity: ") + std::strerror(errno);
    return;
  }
  applied_ = true;
}

ScopedCpuAffinity::~ScopedCpuAffinity() {
  if (!applied_ || !saved_) return;
  cpu_set_t old_mask;
  std::memcpy(&old_mask, previous_.data(), sizeof(old_mask));
  sched_setaffinity(0, sizeof(old_mask), &old_mask);
}

}  // namespace p2p::bench
