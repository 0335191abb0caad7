#include "bench/measure/selection.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"

namespace p2p::bench {

std::vector<int> parse_gpu_list(const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(
        std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }),
        item.end());
    if (item.empty() || item.size() > 4 ||
        !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); })) {
      throw InputError("--gpus: `" + text + "`: `" + item + "` is not a GPU number (use e.g. 0,1)");
    }
    const int g = std::stoi(item);
    if (std::find(out.begin(), out.end(), g) != out.end()) {
      throw InputError("--gpus: `" + text + "`: GPU " + item + " is listed twice");
    }
    out.push_back(g);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
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
