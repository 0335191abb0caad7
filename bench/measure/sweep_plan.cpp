#include "bench/measure/sweep_plan.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "topology/classify.hpp"

namespace p2p::bench {

namespace {

std::string pair_kind(const BenchContext& ctx, int a, int b) {
  if (ctx.device(a) != nullptr && ctx.device(b) != nullptr && ctx.placement.same_device(a, b))
    return "same device";
  const topo::Gpu* ga = ctx.topology_gpu(a);
  const topo::Gpu* gb = ctx.topology_gpu(b);
  if (ga == nullptr || gb == nullptr) return "unknown";
  const auto ia = static_cast<std::size_t>(ga - ctx.topology.gpus.data());
  const auto ib = static_cast<std::size_t>(gb - ctx.topology.gpus.data());
  if (ia >= ctx.topology.pcie_matrix.size()) return "unknown";
  return topo::matrix_label(ctx.topology, ia, ib);
}

std::string numa_kind(const BenchContext& ctx, int gpu) {
  const topo::Gpu* g = ctx.topology_gpu(gpu);
  return g == nullptr || g->numa_node < 0 ? "numa?" : "numa" + std::to_string(g->numa_node);
}

bool through_host(const std::vector<Lane>& lanes) {
  return std::any_of(lanes.begin(), lanes.end(), [](const Lane& l) {
    return l.src.is_host() || l.dst.is_host() ||
           transfer_method(l.method).traits().link_path == LinkPath::kThroughHost;
  });
}

// The lanes as the hardware sees them: every GPU id replaced by the device it lives on.
using PhysicalLane = std::tuple<int, int, int, Method>;  // src, dst (-1: host), issuer, method

std::vector<PhysicalLane> physical_lanes(const BenchContext& ctx, const std::vector<Lane>& lanes) {
  const auto device = [&](const Endpoint& e) {
    return e.is_gpu() ? ctx.placement.device(e.gpu) : -1;
  };
  std::vector<PhysicalLane> out;
  for (const Lane& l : lanes)
    out.emplace_back(device(l.src), device(l.dst), ctx.placement.device(l.issuer), l.method);
  return out;
}

}  // namespace

std::vector<bool> routes_to_measure(const BenchContext& ctx,
                                    const std::vector<std::vector<Lane>>& lanes, bool full) {
  std::vector<bool> out(lanes.size(), true);
  if (full || !ctx.placement.logical()) return out;
  std::set<std::vector<PhysicalLane>> measured;
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    if (through_host(lanes[k])) out[k] = measured.insert(physical_lanes(ctx, lanes[k])).second;
  }
  return out;
}

std::string repeated_host_routes_note(const BenchContext& ctx, bool full) {
  if (full || !ctx.placement.logical() ||
      ctx.placement.devices().size() >= ctx.placement.device_of.size())
    return "";
  return "logical GPUs of one device share its host link: routes through host memory are measured from the "
         "first logical GPU of each device only (--full measures each)";
}

std::string route_kind(const BenchContext& ctx, const Route& route) {
  switch (route.shape) {
    case RouteShape::kOrderedPair:
    case RouteShape::kUnorderedPair:
      return pair_kind(ctx, route.members.at(0), route.members.at(1));
    case RouteShape::kHostToGpu:
    case RouteShape::kGpuToHost:
    case RouteShape::kHostGpuBoth:
    case RouteShape::kGpu:
    case RouteShape::kGpuLoadsHost: return numa_kind(ctx, route.members.at(0));
    case RouteShape::kRing: return "ring";
    case RouteShape::kAllToOne: return "all to one";
    case RouteShape::kOneToAll: return "one to all";
  }
  return "unknown";
}

std::vector<std::vector<std::uint64_t>> plan_route_sizes(const BenchContext& ctx,
                                                         const std::vector<Route>& routes,
                                                         const std::vector<std::uint64_t>& sizes,
                                                         bool full) {
  std::vector<std::vector<std::uint64_t>> out;
  if (sizes.empty()) return std::vector<std::vector<std::uint64_t>>(routes.size());
  const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
  std::set<std::string> swept;
  for (const Route& r : routes) {
    const bool first_of_kind = swept.insert(route_kind(ctx, r)).second;
    out.push_back(full || first_of_kind ? sizes : std::vector<std::uint64_t>{largest});
  }
  return out;
}

}  // namespace p2p::bench
