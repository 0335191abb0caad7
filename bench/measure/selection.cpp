#include "bench/measure/selection.hpp"

#include <algorithm>

#include "common/device_list.hpp"
#include "common/error.hpp"

namespace p2p::bench {

std::vector<int> parse_gpu_list(const std::string& text) {
  return parse_device_list(text, "--gpus");
}

std::vector<int> select_gpus(const std::vector<int>& requested, int device_count) {
  std::vector<int> out;
  if (requested.empty()) {
    for (int g = 0; g < device_count; ++g) out.push_back(g);
    return out;
  }
  for (int g : requested) {
    if (g >= device_count) {
      throw InputError("--gpus: GPU " + std::to_string(g) + " does not exist (" +
                       std::to_string(device_count) + " CUDA device" +
                       (device_count == 1 ? "" : "s") + " visible)");
    }
    out.push_back(g);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace p2p::bench
