// What a link carries one way, from the knowledge base's link tables: the one place p2pcheck
// turns a PCIe generation and width, or an NVLink generation and link count, into GB/s.
#include <algorithm>

#include "hardware/knowledge_base.hpp"

namespace p2p::hw {

const GpuModel* KnowledgeBase::model(const std::string& key) const {
  const auto it =
      std::find_if(models.begin(), models.end(), [&](const GpuModel& m) { return m.key == key; });
  return it == models.end() ? nullptr : &*it;
}

const PcieGenerationRow* KnowledgeBase::pcie_generation(int gen) const {
  const auto it = std::find_if(pcie.begin(), pcie.end(),
                               [&](const PcieGenerationRow& r) { return r.gen == gen; });
  return it == pcie.end() ? nullptr : &*it;
}

const NvlinkGenerationRow* KnowledgeBase::nvlink_generation(int generation) const {
  const auto it = std::find_if(nvlink.begin(), nvlink.end(), [&](const NvlinkGenerationRow& r) {
    return r.generation == generation;
  });
  return it == nvlink.end() ? nullptr : &*it;
}

std::vector<const ReferenceFigure*> KnowledgeBase::figures_of(const std::string& model_key) const {
  std::vector<const ReferenceFigure*> out;
  for (const auto& f : figures)
    if (f.model == model_key) out.push_back(&f);
  return out;
}

const char* to_string(P2pPolicy p) {
  switch (p) {
    case P2pPolicy::kGranted: return "granted";
    case P2pPolicy::kRefusedByStockDriver: return "refused_by_stock_driver";
    case P2pPolicy::kUnknown: break;
  }
  return "unknown";
}

std::optional<double> pcie_gbps(const KnowledgeBase& kb, int gen, int width) {
  const auto* g = kb.pcie_generation(gen);
  if (!g || width < 1 || width > 32) return std::nullopt;
  return g->gigatransfers_per_s * g->efficiency * width / 8.0;
}

std::optional<double> nvlink_gbps(const KnowledgeBase& kb, int generation, int links) {
  const auto* g = kb.nvlink_generation(generation);
  if (!g || links < 1) return std::nullopt;
  return g->gbps_per_link_per_direction * links;
}

}  // namespace p2p::hw
