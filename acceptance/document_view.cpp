#include "acceptance/document_view.hpp"

#include <set>

#include "common/byte_size.hpp"
#include "topology/classify.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::accept {

DocumentView::DocumentView(const doc::BenchDocument& d) : doc_(d) {
  if (d.topology) {
    std::map<std::string, std::size_t> by_pci;
    for (std::size_t i = 0; i < d.topology->gpus.size(); ++i)
      by_pci[d.topology->gpus[i].pci_bus_id] = i;
    for (const auto& g : d.gpus) {
      if (const auto it = by_pci.find(g.pci_bus_id); it != by_pci.end())
        topology_index_[doc::gpu_label(g)] = it->second;
    }
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

std::optional<std::pair<double, std::string>> DocumentView::ceiling(
    const doc::BandwidthResult& r) const {
  const auto recorded = [&r]() -> std::optional<std::pair<double, std::string>> {
    if (!r.ceiling_gbps || *r.ceiling_gbps <= 0) return std::nullopt;
    return std::make_pair(*r.ceiling_gbps, r.ceiling_link);
  };
  if (r.ceiling_link.rfind("NVLink", 0) == 0) return recorded();
  const topo::Gpu* a = topology_gpu(r.src);
  const topo::Gpu* b = topology_gpu(r.dst);
  std::optional<std::pair<double, std::string>> best;
  for (const topo::Gpu* g : {a, b}) {
    if (g == nullptr) continue;
    const auto c = capable(*g);
    if (!c) return recorded();  // one end's link unknown: what the run itself recorded
    if (!best || c->first < best->first) best = c;
  }
  return best ? best : recorded();
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

std::string figure_subject(const doc::BandwidthResult& r) {
  return r.case_name + " " + r.src + "->" + r.dst + (r.part.empty() ? "" : " " + r.part) + " " +
         format_bytes(r.bytes, ByteStyle::kCompact);
}

}  // namespace p2p::accept
