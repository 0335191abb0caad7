#include "topology/nvlink.hpp"

#include <algorithm>
#include <cmath>

namespace p2p::topo {

namespace {

// The per-link rate every value is a whole multiple of, preferring the NVLink 2-4 rate; 50000
// only when some GPU's total cannot be 25000 MB/s links, 20000 when only that divides.
std::uint64_t per_link_mbps(const NvlinkBandwidth& bw) {
  const std::size_t n = bw.gpu_mbps.size();
  bool div25 = true, div20 = true;
  std::uint64_t max_total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t total = 0;
    const auto visit = [&](std::uint64_t v) {
      total += v;
      div25 = div25 && v % 25000 == 0;
      div20 = div20 && v % 20000 == 0;
    };
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) visit(bw.gpu_mbps[i][j]);
    if (i < bw.switch_mbps.size())
      for (std::uint64_t v : bw.switch_mbps[i]) visit(v);
    max_total = std::max(max_total, total);
  }
  if (div25)
    return max_total > kMaxNvlinksPerGpu * 25000ull && max_total % 50000 == 0 ? 50000 : 25000;
  if (div20) return 20000;
  return 25000;
}

int links(std::uint64_t mbps, std::uint64_t per_link) {
  return static_cast<int>(std::llround(static_cast<double>(mbps) / static_cast<double>(per_link)));
}

}  // namespace

std::vector<std::vector<int>> nvlink_counts_from_bandwidth(const NvlinkBandwidth& bw) {
  const std::size_t n = bw.gpu_mbps.size();
  std::vector<std::vector<int>> count(n, std::vector<int>(n, 0));
  if (n == 0) return count;
  const std::uint64_t rate = per_link_mbps(bw);
  std::vector<int> to_switches(n, 0);
  for (std::size_t i = 0; i < n && i < bw.switch_mbps.size(); ++i)
    for (std::uint64_t v : bw.switch_mbps[i]) to_switches[i] += links(v, rate);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      int c = links(bw.gpu_mbps[i][j], rate);
      if (to_switches[i] > 0 && to_switches[j] > 0) c += std::min(to_switches[i], to_switches[j]);
      count[i][j] = c;
    }
  }
  return count;
}

}  // namespace p2p::topo
