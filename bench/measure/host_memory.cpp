#include "bench/measure/host_memory.hpp"

namespace p2p::bench {

std::string to_string(HostMemory m) { return m == HostMemory::kHugePages ? "hugepages" : "pinned"; }

std::optional<HostMemory> host_memory_from_string(const std::string& s) {
  if (s == "pinned") return HostMemory::kPinned;
  if (s == "hugepages") return HostMemory::kHugePages;
  return std::nullopt;
}

}  // namespace p2p::bench
