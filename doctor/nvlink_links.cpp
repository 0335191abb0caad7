#include "doctor/nvlink_links.hpp"

#include <algorithm>

#include "doctor/derived.hpp"

namespace p2p::doctor {

std::vector<std::vector<int>> nvlink_counts_from_remotes(
    const std::vector<std::string>& gpu_bus_ids,
    const std::vector<std::vector<std::string>>& remotes) {
  const std::size_t n = gpu_bus_ids.size();
  std::vector<std::string> gpus;
  for (const auto& id : gpu_bus_ids) gpus.push_back(normalize_bdf(id));
  std::vector<std::vector<int>> counts(n, std::vector<int>(n, 0));
  std::vector<int> switch_links(n, 0);
  for (std::size_t i = 0; i < n && i < remotes.size(); ++i) {
    for (const auto& far : remotes[i]) {
      const auto it = std::find(gpus.begin(), gpus.end(), normalize_bdf(far));
      if (it == gpus.end()) {
        ++switch_links[i];
      } else if (static_cast<std::size_t>(it - gpus.begin()) != i) {
        ++counts[i][static_cast<std::size_t>(it - gpus.begin())];
      }
    }
  }
  std::vector<std::vector<int>> pairs(n, std::vector<int>(n, 0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      // Each side reports the same direct link, so a pair's count is what either side saw.
      const int direct = std::max(counts[i][j], counts[j][i]);
      pairs[i][j] = direct + std::min(switch_links[i], switch_links[j]);
    }
  }
  return pairs;
}

}  // namespace p2p::doctor
