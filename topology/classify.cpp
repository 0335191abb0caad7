#include "topology/classify.hpp"

#include <algorithm>
#include <stdexcept>

namespace p2p::topo {

PathClass classify_pcie_path(const TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (a == b) return PathClass::kSelf;
  const Gpu& x = t.gpus.at(a);
  const Gpu& y = t.gpus.at(b);
  if (x.host_bridge.empty() || y.host_bridge.empty() || x.host_bridge != y.host_bridge) {
    // Different root complexes: the traffic crosses the CPU's fabric between host bridges,
    // and the SMP interconnect as well when the NUMA nodes differ. Two unknown NUMA nodes are
    // not one node: firmware without PCI locality hangs every host bridge on the machine (the
    // JUROPA3 capture), though its root complexes sit on different sockets.
    const bool same_node = x.numa_node >= 0 && x.numa_node == y.numa_node;
    return same_node ? PathClass::kNode : PathClass::kSys;
  }
  const auto mismatch =
      std::mismatch(x.pcie_path.begin(), x.pcie_path.end(), y.pcie_path.begin(), y.pcie_path.end());
  const auto shared = static_cast<std::size_t>(mismatch.first - x.pcie_path.begin());
  if (shared == 0) return PathClass::kPhb;  // lowest common ancestor: the host bridge itself
  // The lowest common ancestor is the bridge pcie_path[shared - 1]. In a switch that is the
  // upstream port and each GPU sits below exactly one downstream port: one switch, PIX.
  const std::size_t below_x = x.pcie_path.size() - shared;
  const std::size_t below_y = y.pcie_path.size() - shared;
  return below_x <= 1 && below_y <= 1 ? PathClass::kPix : PathClass::kPxb;
}

std::vector<std::vector<PathClass>> compute_pcie_matrix(const TopologySnapshot& t) {
  const std::size_t n = t.gpus.size();
  std::vector<std::vector<PathClass>> m(n, std::vector<PathClass>(n, PathClass::kSelf));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) m[i][j] = classify_pcie_path(t, i, j);
  return m;
}

void classify_snapshot(TopologySnapshot& t) {
  const std::size_t n = t.gpus.size();
  t.pcie_matrix = compute_pcie_matrix(t);
  bool sized = t.nvlink_count.size() == n;
  for (const auto& row : t.nvlink_count) sized = sized && row.size() == n;
  if (!sized) t.nvlink_count.assign(n, std::vector<int>(n, 0));
}

std::string matrix_label(const TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (a == b) return to_string(PathClass::kSelf);
  if (a < t.nvlink_count.size() && b < t.nvlink_count[a].size() && t.nvlink_count[a][b] > 0)
    return "NV" + std::to_string(t.nvlink_count[a][b]);
  return to_string(t.pcie_matrix.at(a).at(b));
}

std::vector<std::vector<std::string>> display_matrix(const TopologySnapshot& t) {
  const std::size_t n = t.gpus.size();
  std::vector<std::vector<std::string>> m(n, std::vector<std::string>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) m[i][j] = matrix_label(t, i, j);
  return m;
}

int path_rank(PathClass c) {
  switch (c) {
    case PathClass::kSelf: return -1;
    case PathClass::kNvLink: return 0;
    case PathClass::kPix: return 1;
    case PathClass::kPxb: return 2;
    case PathClass::kPhb: return 3;
    case PathClass::kNode: return 4;
    case PathClass::kSys: return 5;
  }
  throw std::logic_error("path_rank: unknown PathClass");
}

}  // namespace p2p::topo
