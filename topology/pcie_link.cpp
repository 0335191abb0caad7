#include "topology/pcie_link.hpp"

#include <cmath>
#include <sstream>

namespace p2p::topo {

namespace {
constexpr int kMaxGen = 6;
constexpr int kGpuWidths[] = {1, 2, 4, 8, 16};

double round_to_mbps(double gbps) { return std::round(gbps * 1000.0) / 1000.0; }
}  // namespace

std::optional<PcieGeneration> pcie_generation(int gen) {
  static constexpr PcieGeneration kGenerations[] = {
      {1, 2.5, LineCoding::k8b10b, 8.0 / 10.0},
      {2, 5.0, LineCoding::k8b10b, 8.0 / 10.0},
      {3, 8.0, LineCoding::k128b130b, 128.0 / 130.0},
      {4, 16.0, LineCoding::k128b130b, 128.0 / 130.0},
      {5, 32.0, LineCoding::k128b130b, 128.0 / 130.0},
      {6, 64.0, LineCoding::kPam4Flit, 242.0 / 256.0},
  };
  if (gen < 1 || gen > kMaxGen) return std::nullopt;
  return kGenerations[gen - 1];
}

double hwloc_link_gbps(int gen, int width) {
  const auto g = pcie_generation(gen);
  return g ? g->gigatransfers_per_s * g->efficiency * width / 8.0 : 0.0;
}

PcieLink make_link(int gen, int width) {
  return PcieLink{gen, width, round_to_mbps(hwloc_link_gbps(gen, width))};
}

std::vector<std::pair<int, int>> link_candidates(double gbps) {
  std::vector<std::pair<int, int>> out;
  if (!(gbps > 0)) return out;
  for (int gen = 1; gen <= kMaxGen; ++gen) {
    for (int width : kGpuWidths) {
      // hwloc stores a float and prints 6 decimals: allow a relative 1e-4.
      if (std::fabs(hwloc_link_gbps(gen, width) - gbps) <= 1e-4 * gbps)
        out.emplace_back(gen, width);
    }
  }
  return out;
}

PcieLink link_from_gbps(double gbps) {
  PcieLink link;
  if (!(gbps > 0)) return link;
  link.gbps = round_to_mbps(gbps);
  const auto candidates = link_candidates(gbps);
  if (candidates.size() == 1) {
    link.gen = candidates.front().first;
    link.width = candidates.front().second;
  }
  return link;
}

std::optional<int> gen_from_gts(double gt_per_s) {
  for (int gen = 1; gen <= kMaxGen; ++gen)
    if (std::fabs(gt_per_s - pcie_generation(gen)->gigatransfers_per_s) < 0.01) return gen;
  return std::nullopt;
}

std::string describe_link(const PcieLink& link) {
  std::ostringstream out;
  if (link.gen && link.width) {
    out << "Gen" << *link.gen << " x" << *link.width;
    return out.str();
  }
  if (link.gbps) {
    out << *link.gbps << " GB/s";
    const auto candidates = link_candidates(*link.gbps);
    if (!candidates.empty()) {
      out << " (";
      for (std::size_t i = 0; i < candidates.size(); ++i)
        out << (i ? " or " : "") << "Gen" << candidates[i].first << " x" << candidates[i].second;
      out << ")";
    }
    return out.str();
  }
  if (link.gen) return "Gen" + std::to_string(*link.gen) + " x?";
  if (link.width) return "Gen? x" + std::to_string(*link.width);
  return "unknown";
}

}  // namespace p2p::topo
