#include "bench/measure/cases.hpp"

#include "common/byte_size.hpp"

namespace p2p::bench {
namespace {

Lane lane(Endpoint src, Endpoint dst, int issuer, Method m) { return Lane{src, dst, issuer, m}; }
Endpoint gpu(int g) { return Endpoint::on_gpu(g); }

// Pair routes: members = {a, b}, src = gpu a, dst = gpu b.
int a_of(const Route& r) { return r.members.at(0); }
int b_of(const Route& r) { return r.members.at(1); }

WaiveFn needs_p2p(const LanesFn& lanes) {
  return
      [lanes](const BenchContext& ctx, const Route& r) { return waive_without_p2p(ctx, lanes(r)); };
}

WaiveFn never() {
  return
      [](const BenchContext&, const Route&) -> std::optional<std::string> { return std::nullopt; };
}

Case bandwidth_case(std::string name, std::string what, RouteShape shape, LanesFn lanes, bool p2p) {
  Case c;
  c.name = std::move(name);
  c.what = std::move(what);
  c.shape = shape;
  c.metric = Metric::kBandwidth;
  c.waive = p2p ? needs_p2p(lanes) : never();
  c.lanes = std::move(lanes);
  c.time = measure_bandwidth;
  return c;
}

// Both directions at once, each direction's figure taken while the other is surely running
// (see MeasureOptions::each_lane_under_load), as nvbandwidth times its bidirectional tests.
Case each_direction_under_load(Case c) {
  c.time = [](const std::vector<Lane>& lanes, std::uint64_t bytes, const MeasureOptions& options) {
    MeasureOptions o = options;
    o.each_lane_under_load = true;
    return measure_bandwidth(lanes, bytes, o);
  };
  return c;
}

Case latency_case(std::string name, std::string what, RouteShape shape, LanesFn lanes, bool p2p) {
  Case c = bandwidth_case(std::move(name), std::move(what), shape, std::move(lanes), p2p);
  c.metric = Metric::kLatency;
  c.time = measure_latency;
  return c;
}

std::vector<Case> make_cases() {
  using M = Method;
  using S = RouteShape;
  std::vector<Case> cs;
  cs.push_back(bandwidth_case(
      "ce_unidir_write",
      "copy engine, one direction: cudaMemcpyPeerAsync issued by the source GPU, which writes into the peer",
      S::kOrderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), a_of(r), M::kCopyEngine)};
      },
      true));
  cs.push_back(bandwidth_case(
      "ce_unidir_read",
      "copy engine, one direction: cudaMemcpyPeerAsync issued by the destination GPU, which reads from the "
      "peer",
      S::kOrderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), b_of(r), M::kCopyEngine)};
      },
      true));
  cs.push_back(each_direction_under_load(bandwidth_case(
      "ce_bidir",
      "copy engine, both directions at once: each GPU issues cudaMemcpyPeerAsync to the other; each "
      "direction (timed while the other runs) and the sum",
      S::kUnorderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), a_of(r), M::kCopyEngine),
                                 lane(gpu(b_of(r)), gpu(a_of(r)), b_of(r), M::kCopyEngine)};
      },
      true)));
  cs.push_back(bandwidth_case(
      "sm_read",
      "SM copy kernel on the destination GPU loading from the source GPU's memory through peer access",
      S::kOrderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), b_of(r), M::kSm)};
      },
      true));
  cs.push_back(bandwidth_case(
      "sm_write",
      "SM copy kernel on the source GPU storing into the destination GPU's memory through peer access",
      S::kOrderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), a_of(r), M::kSm)};
      },
      true));
  cs.push_back(each_direction_under_load(bandwidth_case(
      "sm_bidir",
      "SM copy kernels on both GPUs at once, each storing into the other's memory; each direction (timed "
      "while the other runs) and the sum",
      S::kUnorderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), a_of(r), M::kSm),
                                 lane(gpu(b_of(r)), gpu(a_of(r)), b_of(r), M::kSm)};
      },
      true)));
  cs.push_back(bandwidth_case(
      "staged",
      "no P2P: the source GPU copies into pinned host memory and the destination GPU copies out of it, "
      "pipelined in chunks (the path without peer access); measured for every pair",
      S::kOrderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), a_of(r), M::kStaged)};
      },
      false));
  cs.push_back(bandwidth_case(
      "h2d_ce", "copy engine host to GPU from pinned host memory, issued by the GPU", S::kHostToGpu,
      [](const Route& r) {
        return std::vector<Lane>{lane(Endpoint::host(), r.dst, r.dst.gpu, M::kCopyEngine)};
      },
      false));
  cs.push_back(bandwidth_case(
      "d2h_ce", "copy engine GPU to pinned host memory, issued by the GPU", S::kGpuToHost,
      [](const Route& r) {
        return std::vector<Lane>{lane(r.src, Endpoint::host(), r.src.gpu, M::kCopyEngine)};
      },
      false));
  cs.push_back(each_direction_under_load(bandwidth_case(
      "h2d_d2h_ce",
      "copy engine host to GPU and GPU to host at once, both issued by the GPU; each direction (timed while "
      "the other runs) and the sum",
      S::kHostGpuBoth,
      [](const Route& r) {
        return std::vector<Lane>{lane(Endpoint::host(), r.dst, r.dst.gpu, M::kCopyEngine),
                                 lane(r.dst, Endpoint::host(), r.dst.gpu, M::kCopyEngine)};
      },
      false)));
  cs.push_back(bandwidth_case(
      "h2d_sm", "SM copy kernel on the GPU loading from mapped pinned host memory", S::kHostToGpu,
      [](const Route& r) {
        return std::vector<Lane>{lane(Endpoint::host(), r.dst, r.dst.gpu, M::kSm)};
      },
      false));
  cs.push_back(bandwidth_case(
      "d2h_sm", "SM copy kernel on the GPU storing into mapped pinned host memory", S::kGpuToHost,
      [](const Route& r) {
        return std::vector<Lane>{lane(r.src, Endpoint::host(), r.src.gpu, M::kSm)};
      },
      false));
  cs.push_back(bandwidth_case(
      "h2d_d2h_sm",
      "one SM copy kernel on the GPU, alternate warps copying host to GPU and GPU to host; each direction "
      "and the sum",
      S::kHostGpuBoth,
      [](const Route& r) {
        return std::vector<Lane>{lane(Endpoint::host(), r.dst, r.dst.gpu, M::kSm),
                                 lane(r.dst, Endpoint::host(), r.dst.gpu, M::kSm)};
      },
      false));
  cs.push_back(bandwidth_case(
      "device_local_ce",
      "copy engine within one GPU's memory (cudaMemcpyAsync device to device), issued by that GPU",
      S::kGpu,
      [](const Route& r) {
        return std::vector<Lane>{lane(r.src, r.dst, r.src.gpu, M::kCopyEngine)};
      },
      false));
  cs.push_back(bandwidth_case(
      "device_local_sm", "SM copy kernel within one GPU's memory, on that GPU", S::kGpu,
      [](const Route& r) { return std::vector<Lane>{lane(r.src, r.dst, r.src.gpu, M::kSm)}; },
      false));
  cs.push_back(bandwidth_case(
      "contention_ring",
      "all GPUs at once, each copy engine copying to the next GPU in the ring, issued by the source; the "
      "total",
      S::kRing,
      [](const Route& r) {
        std::vector<Lane> ls;
        for (std::size_t i = 0; i < r.members.size(); ++i) {
          const int s = r.members[i];
          const int d = r.members[(i + 1) % r.members.size()];
          ls.push_back(lane(gpu(s), gpu(d), s, M::kCopyEngine));
        }
        return ls;
      },
      false));
  cs.push_back(bandwidth_case(
      "contention_all_to_one",
      "every other GPU at once copies into one GPU, copy engine issued by each source; the total",
      S::kAllToOne,
      [](const Route& r) {
        std::vector<Lane> ls;
        for (int s : r.members) {
          if (s != r.dst.gpu) ls.push_back(lane(gpu(s), r.dst, s, M::kCopyEngine));
        }
        return ls;
      },
      false));
  cs.push_back(bandwidth_case(
      "contention_one_to_all",
      "one GPU at once copies to every other GPU, copy engine issued by that GPU; the total",
      S::kOneToAll,
      [](const Route& r) {
        std::vector<Lane> ls;
        for (int d : r.members) {
          if (d != r.src.gpu) ls.push_back(lane(r.src, gpu(d), r.src.gpu, M::kCopyEngine));
        }
        return ls;
      },
      false));
  cs.push_back(latency_case(
      "latency_peer",
      "pointer chase: the row GPU loads from the column GPU's memory through peer access; ns per dependent "
      "load",
      S::kOrderedPair,
      [](const Route& r) {
        return std::vector<Lane>{lane(gpu(a_of(r)), gpu(b_of(r)), a_of(r), M::kPointerChase)};
      },
      true));
  cs.push_back(latency_case(
      "latency_host", "pointer chase: the GPU loads from pinned host memory; ns per dependent load",
      S::kGpuLoadsHost,
      [](const Route& r) {
        return std::vector<Lane>{lane(r.src, Endpoint::host(), r.src.gpu, M::kPointerChase)};
      },
      false));
  return cs;
}

}  // namespace

std::string Route::label() const {
  switch (shape) {
    case RouteShape::kUnorderedPair:
    case RouteShape::kHostGpuBoth: return src.label() + "<->" + dst.label();
    case RouteShape::kGpu: return src.label();
    case RouteShape::kRing: return "ring";
    default: return src.label() + "->" + dst.label();
  }
}

const std::vector<Case>& all_cases() {
  static const std::vector<Case> cases = make_cases();
  return cases;
}

std::vector<Route> routes_for(RouteShape shape, const std::vector<int>& gpus) {
  std::vector<Route> out;
  auto add = [&](Endpoint s, Endpoint d, std::vector<int> members) {
    out.push_back(Route{shape, s, d, std::move(members)});
  };
  switch (shape) {
    case RouteShape::kOrderedPair:
      for (int a : gpus)
        for (int b : gpus)
          if (a != b) add(gpu(a), gpu(b), {a, b});
      break;
    case RouteShape::kUnorderedPair:
      for (std::size_t i = 0; i < gpus.size(); ++i)
        for (std::size_t j = i + 1; j < gpus.size(); ++j)
          add(gpu(gpus[i]), gpu(gpus[j]), {gpus[i], gpus[j]});
      break;
    case RouteShape::kHostToGpu:
    case RouteShape::kHostGpuBoth:
      for (int g : gpus) add(Endpoint::host(), gpu(g), {g});
      break;
    case RouteShape::kGpuToHost:
    case RouteShape::kGpuLoadsHost:
      for (int g : gpus) add(gpu(g), Endpoint::host(), {g});
      break;
    case RouteShape::kGpu:
      for (int g : gpus) add(gpu(g), gpu(g), {g});
      break;
    case RouteShape::kRing:
      if (gpus.size() >= 2) add(Endpoint::all(), Endpoint::all(), gpus);
      break;
    case RouteShape::kAllToOne:
      if (gpus.size() >= 2)
        for (int t : gpus) add(Endpoint::all(), gpu(t), gpus);
      break;
    case RouteShape::kOneToAll:
      if (gpus.size() >= 2)
        for (int s : gpus) add(gpu(s), Endpoint::all(), gpus);
      break;
  }
  return out;
}

std::string benchmark_name(const Case& c, const Route& r, std::optional<std::uint64_t> bytes) {
  std::string name = c.name + "/" + r.label();
  if (bytes) name += "/" + format_bytes(*bytes, ByteStyle::kCompact);
  return name;
}

std::optional<std::string> waive_without_p2p(const BenchContext& ctx,
                                             const std::vector<Lane>& lanes) {
  for (const Lane& l : lanes) {
    if (!l.src.is_gpu() || !l.dst.is_gpu() || l.src == l.dst) continue;
    const int other = l.issuer == l.src.gpu ? l.dst.gpu : l.src.gpu;
    if (!ctx.peer_access(l.issuer, other)) {
      return "P2P unavailable: cudaDeviceCanAccessPeer(gpu" + std::to_string(l.issuer) + ", gpu" +
             std::to_string(other) + ") = 0";
    }
  }
  return std::nullopt;
}

}  // namespace p2p::bench
