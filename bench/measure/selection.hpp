// Which GPUs: `--gpus` parsing and checking (the benchmarks are chosen by harness::NameFilter).
#pragma once

#include <string>
#include <vector>

namespace p2p::bench {

// "0,1,3" -> {0, 1, 3}. InputError("--gpus: ...") on junk, negatives or duplicates.
std::vector<int> parse_gpu_list(const std::string& text);

// Checks every requested ordinal exists; empty request = all. Result ascending.
std::vector<int> select_gpus(const std::vector<int>& requested, int device_count);

}  // namespace p2p::bench
