#include "acceptance/check_places.hpp"

#include "document/subject_gpus.hpp"

namespace p2p::accept {
namespace {

// The switch a GPU sits behind: the upstream port under its root port, on a path of root port,
// switch upstream port, switch downstream port (at least); "" for a GPU on a root port.
std::string switch_of(const topo::Gpu& g) { return g.pcie_path.size() >= 3 ? g.pcie_path[1] : ""; }

std::vector<std::string> pair_places(const DocumentView& view, const std::string& a,
                                     const std::string& b) {
  std::vector<std::string> out;
  if (const std::string path = view.path_label(a, b); !path.empty()) out.push_back("path " + path);
  const topo::Gpu* ga = view.topology_gpu(a);
  const topo::Gpu* gb = view.topology_gpu(b);
  if (ga == nullptr || gb == nullptr || ga == gb) return out;
  if (!switch_of(*ga).empty() && switch_of(*ga) == switch_of(*gb))
    out.push_back("switch " + switch_of(*ga));
  if (ga->numa_node >= 0 && ga->numa_node == gb->numa_node)
    out.push_back("numa " + std::to_string(ga->numa_node));
  return out;
}

std::vector<std::string> gpu_places(const DocumentView& view, const std::string& gpu) {
  std::vector<std::string> out;
  const topo::Gpu* g = view.topology_gpu(gpu);
  if (g == nullptr) return out;
  if (!switch_of(*g).empty()) out.push_back("switch " + switch_of(*g));
  if (g->numa_node >= 0) out.push_back("numa " + std::to_string(g->numa_node));
  return out;
}

}  // namespace

void add_places(doc::RunVerdict& v, const DocumentView& view) {
  if (!view.doc().topology) return;
  for (auto& c : v.checks) {
    if (const auto pair = doc::gpu_pair_of(c.subject)) {
      c.places = pair_places(view, pair->first, pair->second);
      continue;
    }
    const auto gpus = doc::gpus_named(c.subject);
    if (gpus.size() == 1) c.places = gpu_places(view, *gpus.begin());
  }
}

}  // namespace p2p::accept
