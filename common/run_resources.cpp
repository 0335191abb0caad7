#include "common/run_resources.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace p2p {

RunResources RunClock::now() const {
  RunResources r;
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  rusage self{}, children{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  // Linux reports ru_maxrss in KiB.
  r.peak_rss_bytes =
      static_cast<std::uint64_t>(std::max(self.ru_maxrss, children.ru_maxrss)) * 1024;
  return r;
}

}  // namespace p2p
