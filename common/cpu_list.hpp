// CPU lists as sysfs and hwloc write them ("0-15,32-47"): the CPUs local to a GPU, which the
// snapshot keeps and the copy threads are pinned to.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace p2p {

// "0-15,32-47" -> {0..15, 32..47}; a trailing newline is allowed. nullopt when malformed or a
// CPU is beyond what a cpu_set_t holds.
std::optional<std::vector<int>> parse_cpu_list(const std::string& list);

}  // namespace p2p
