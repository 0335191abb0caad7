#include "acceptance/document_view.hpp"

#include <set>

#include "common/byte_size.hpp"
#include "hardware/model_match.hpp"
#include "topology/classify.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::accept {

DocumentView::DocumentView(const doc::BenchDocument& d, const hw::KnowledgeBase& kb)
    : doc_(d), kb_(kb) {
  if (d.topology) {
    std::map<std::string, std::size_t> by_pci;
    for (std::size_t i = 0; i < d.topology->gpus.size(); ++i)
      by_pci[d.topology->gpus[i].pci_bus_id] = i;
    for (const auto& g : d.gpus) {
      if (const auto it = by_pci.find(g.pci_bus_id); it != by_pci.end())
        topology_index_[doc::gpu_label(g)] = it->second;
    }
  }
  for (const auto& g : d.gpus) {
    const std::string label = doc::gpu_label(g);
    const hw::GpuModel* m = hw::identify_model(kb_, g.name).model;
    if (const topo::Gpu* t = topology_gpu(label); m == nullptr && t != nullptr) {
      char id[16];
      std::snprintf(id, sizeof id, "%04x:%04x", t->vendor_id, t->device_id);
      m = hw::identify_model(kb_, id).model;
      if (m == nullptr) m = hw::identify_model(kb_, t->name).model;
    }
    if (m != nullptr) models_[label] = m;
  }
  for (const auto& r : d.bandwidth) {
    const doc::BandwidthResult*& slot = largest_[{r.case_name, r.src, r.dst, r.part}];
    if (slot == nullptr || r.bytes > slot->bytes) slot = &r;
  }
}

const topo::Gpu* DocumentView::topology_gpu(const std::string& label) const {
  const auto it = topology_index_.find(label);
  return it == topology_index_.end() ? nullptr : &doc_.topology->gpus[it->second];
}

namespace {
std::optional<std::pair<double, std::string>> capable(const topo::Gpu& g) {
  const topo::PcieLink& l = g.link_max;
  if (l.gen && l.width)
    return std::make_pair(topo::hwloc_link_gbps(*l.gen, *l.width),
                          "PCIe gen" + std::to_string(*l.gen) + " x" + std::to_string(*l.width));
  if (l.gbps && *l.gbps > 0) return std::make_pair(*l.gbps, topo::describe_link(l));
  return std::nullopt;
}
}  // namespace

std::optional<Ceiling> DocumentView::ceiling(const doc::BandwidthResult& r) const {
  const auto recorded = [&r]() -> std::optional<Ceiling> {
    if (!r.ceiling_gbps || *r.ceiling_gbps <= 0) return std::nullopt;
    return Ceiling{*r.ceiling_gbps, r.ceiling_link, "topology"};
  };
  // The GPU model's own link: what a document without any link is held to.
  const auto model_link = [&]() -> std::optional<Ceiling> {
    const hw::GpuModel* m = model_of(r.src, r.dst);
    if (m == nullptr || !m->pcie) return std::nullopt;
    const auto g = hw::pcie_gbps(kb_, m->pcie->gen, m->pcie->width);
    if (!g) return std::nullopt;
    return Ceiling{*g,
                   "PCIe gen" + std::to_string(m->pcie->gen) + " x" +
                       std::to_string(m->pcie->width) + " of the " + m->name,
                   "model"};
  };
  if (r.ceiling_link.rfind("NVLink", 0) == 0) return recorded();
  const topo::Gpu* a = topology_gpu(r.src);
  const topo::Gpu* b = topology_gpu(r.dst);
  std::optional<Ceiling> best;
  for (const topo::Gpu* g : {a, b}) {
    if (g == nullptr) continue;
    const auto c = capable(*g);
    if (!c) return recorded();  // one end's link unknown: what the run itself recorded
    if (!best || c->first < best->gbps) best = Ceiling{c->first, c->second, "topology"};
  }
  if (best) return best;
  if (auto rec = recorded()) return rec;
  return model_link();
}

const hw::GpuModel* DocumentView::model_of(const std::string& label) const {
  const auto it = models_.find(label);
  return it == models_.end() ? nullptr : it->second;
}

const hw::GpuModel* DocumentView::model_of(const std::string& src, const std::string& dst) const {
  const hw::GpuModel* a = model_of(src);
  const hw::GpuModel* b = model_of(dst);
  if (a && b) return a == b ? a : nullptr;
  const bool host_link = src == "host" || dst == "host";
  return host_link ? (a ? a : b) : nullptr;
}

const hw::GpuModel* DocumentView::document_model(std::vector<std::string>* names) const {
  std::set<std::string> seen;
  for (const auto& g : doc_.gpus)
    if (!g.name.empty()) seen.insert(g.name);
  if (doc_.nccl)
    for (const auto& d : doc_.nccl->run.environment.devices)
      if (!d.name.empty()) seen.insert(d.name);
  if (names) names->assign(seen.begin(), seen.end());
  const hw::GpuModel* one = nullptr;
  for (const auto& [label, m] : models_) {
    if (one != nullptr && one != m) return nullptr;
    one = m;
  }
  for (const auto& n : seen) {
    const hw::GpuModel* m = hw::identify_model(kb_, n).model;
    if (m == nullptr || (one != nullptr && one != m)) return nullptr;
    one = m;
  }
  return one;
}

std::optional<topo::PathClass> DocumentView::path(const std::string& a,
                                                  const std::string& b) const {
  const auto ia = topology_index_.find(a), ib = topology_index_.find(b);
  if (ia == topology_index_.end() || ib == topology_index_.end() || ia->second == ib->second)
    return std::nullopt;
  const topo::TopologySnapshot& t = *doc_.topology;
  const std::size_t i = ia->second, j = ib->second;
  if (i < t.nvlink_count.size() && j < t.nvlink_count[i].size() && t.nvlink_count[i][j] > 0)
    return topo::PathClass::kNvLink;
  return topo::classify_pcie_path(t, i, j);
}

std::string DocumentView::path_label(const std::string& a, const std::string& b) const {
  const auto ia = topology_index_.find(a), ib = topology_index_.find(b);
  if (ia == topology_index_.end() || ib == topology_index_.end() || ia->second == ib->second)
    return "";
  return topo::matrix_label(*doc_.topology, ia->second, ib->second);
}

const doc::BandwidthResult* DocumentView::plateau(const std::string& case_name,
                                                  const std::string& src, const std::string& dst,
                                                  const std::string& part,
                                                  std::uint64_t min_bytes) const {
  const auto it = largest_.find({case_name, src, dst, part});
  if (it == largest_.end() || it->second->bytes < min_bytes) return nullptr;
  return it->second;
}

std::vector<const doc::BandwidthResult*> DocumentView::plateaus(const std::string& case_name,
                                                                const std::string& part,
                                                                std::uint64_t min_bytes) const {
  std::vector<const doc::BandwidthResult*> out;
  for (const auto& [key, r] : largest_) {
    if (std::get<0>(key) == case_name && std::get<3>(key) == part && r->bytes >= min_bytes)
      out.push_back(r);
  }
  return out;
}

std::uint64_t DocumentView::largest_bytes(const std::string& case_name) const {
  std::uint64_t out = 0;
  for (const auto& [key, r] : largest_)
    if (std::get<0>(key) == case_name) out = std::max(out, r->bytes);
  return out;
}

const doc::LatencyResult* DocumentView::latency(const std::string& case_name,
                                                const std::string& src,
                                                const std::string& dst) const {
  for (const auto& l : doc_.latency)
    if (l.case_name == case_name && l.src == src && l.dst == dst) return &l;
  return nullptr;
}

std::vector<std::string> DocumentView::gpu_models() const {
  std::set<std::string> out;
  for (const auto& g : doc_.gpus)
    if (!g.name.empty()) out.insert(g.name);
  if (doc_.topology) {
    for (const auto& g : doc_.topology->gpus) {
      if (!g.name.empty()) out.insert(g.name);
      char id[16];
      std::snprintf(id, sizeof id, "%04x:%04x", g.vendor_id, g.device_id);
      if (g.device_id != 0) out.insert(id);
    }
  }
  return {out.begin(), out.end()};
}

}  // namespace p2p::accept
