// Which GPUs and which benchmarks: `--gpus` parsing and a name filter with Google Benchmark's
// `--benchmark_filter` semantics (so waived figures follow the same filter as measured ones).
#pragma once

#include <regex>
#include <string>
#include <vector>

namespace p2p::bench {

// "0,1,3" -> {0, 1, 3}. InputError("--gpus: ...") on junk, negatives or duplicates.
std::vector<int> parse_gpu_list(const std::string& text);

// Checks every requested ordinal exists; empty request = all. Result ascending.
std::vector<int> select_gpus(const std::vector<int>& requested, int device_count);

// "" or "all" matches everything; a leading '-' negates; otherwise an extended regex searched
// anywhere in the name. InputError on an invalid regex.
class NameFilter {
 public:
  explicit NameFilter(const std::string& spec);
  bool matches(const std::string& name) const;

 private:
  bool all_ = false;
  bool negate_ = false;
  std::regex re_;
};

}  // namespace p2p::bench
