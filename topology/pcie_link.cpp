#include "topology/pcie_link.hpp"

#include <cmath>
#include <sstream>

#include "hardware/knowledge_base.hpp"

namespace p2p::topo {

namespace {
constexpr int kMaxGen = 6;
constexpr int kGpuWidths[] = {1, 2, 4, 8, 16};

double round_to_mbps(double gbps) { return std::round(gbps * 1000.0) / 1000.0; }
}  // namespace

std::optional<PcieGeneration> pcie_generation(int gen) {
  if (gen < 1 || gen > kMaxGen) return std::nullopt;
  // The knowledge base's table (hardware/data/links.json, each row with its source).
  const hw::PcieGenerationRow* row = hw::builtin_knowledge_base().pcie_generation(gen);
  if (row == nullptr) return std::nullopt;
  const LineCoding coding = row->encoding == "8b/10b"      ? LineCoding::k8b10b
                            : row->encoding == "128b/130b" ? LineCoding::k128b130b
                                                           : LineCoding::kPam4Flit;
  return PcieGeneration{gen, row->gigatransfers_per_s, coding, row->efficiency};
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
