// How pinned host buffers are obtained. kPinned: cudaHostAlloc, the driver's own pinned pages
// (what nvbandwidth uses). kHugePages: anonymous memory asked to be backed by 2 MiB transparent
// huge pages, then pinned with cudaHostRegister; fewer, larger pages mean fewer translation
// misses for the GPU's copy engines and SMs walking host memory.
#pragma once

#include <optional>
#include <string>

namespace p2p::bench {

enum class HostMemory { kPinned, kHugePages };

std::string to_string(HostMemory m);  // "pinned", "hugepages"
std::optional<HostMemory> host_memory_from_string(const std::string& s);

}  // namespace p2p::bench
