#include "acceptance/check_places.hpp"

#include <algorithm>

#include "document/subject_gpus.hpp"

namespace p2p::accept {
namespace {

// The switch a GPU sits behind: the upstream port under its root port, on a path of root port,
// switch upstream port, switch downstream port (at least); "" for a GPU on a root port.
std::string switch_of(const topo::Gpu& g) { return g.pcie_path.size() >= 3 ? g.pcie_path[1] : ""; }

std::vector<std::string> gpu_places(const DocumentView& view, const std::string& gpu) {
  std::vector<std::string> out;
  const topo::Gpu* g = view.topology_gpu(gpu);
  if (g == nullptr) return out;
  if (!switch_of(*g).empty()) out.push_back("switch " + switch_of(*g));
  if (g->numa_node >= 0) out.push_back("numa " + std::to_string(g->numa_node));
  return out;
}

// A pair's path, and the places both of its GPUs sit in (none for two logical GPUs of one
// device: their figure says nothing of a switch or a node).
std::vector<std::string> pair_places(const DocumentView& view, const std::string& a,
                                     const std::string& b) {
  std::vector<std::string> out;
  if (const std::string path = view.path_label(a, b); !path.empty()) out.push_back("path " + path);
  if (view.topology_gpu(a) == view.topology_gpu(b)) return out;
  const std::vector<std::string> of_b = gpu_places(view, b);
  for (const std::string& place : gpu_places(view, a)) {
    if (std::find(of_b.begin(), of_b.end(), place) != of_b.end()) out.push_back(place);
  }
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
