#include "bench/measure/lane_setup.hpp"

#include <set>
#include <utility>

#include "common/cuda_check.hpp"

namespace p2p::bench {

std::string lane_name(const Lane& l) { return l.src.label() + "->" + l.dst.label(); }

int owner_of(const Endpoint& e, const Lane& lane) { return e.is_gpu() ? e.gpu : lane.issuer; }

cudaStream_t UtilityStreams::of(int gpu) {
  auto it = streams_.find(gpu);
  if (it == streams_.end()) it = streams_.emplace(gpu, cuda::make_stream(place_.device(gpu))).first;
  return it->second.get();
}

void UtilityStreams::wait_all(Deadline deadline, const std::string& what) {
  for (auto& [gpu, stream] : streams_) wait_until_done(stream.get(), deadline, what);
}

std::set<std::pair<int, int>> plan_peer_mappings(const std::vector<Lane>& lanes,
                                                 const GpuPlacement& place,
                                                 const CanAccessPeer& can_access) {
  std::set<std::pair<int, int>> wanted;
  for (const Lane& l : lanes) {
    const PeerMapping need = transfer_method(l.method).traits().peer_mapping;
    if (!l.src.is_gpu() || !l.dst.is_gpu() || l.src == l.dst || need == PeerMapping::kNone)
      continue;
    const int issuer = place.device(l.issuer);
    const int other = place.device(l.issuer == l.src.gpu ? l.dst.gpu : l.src.gpu);
    if (issuer == other) continue;
    wanted.insert({issuer, other});
    if (need == PeerMapping::kBothWhereAllowed && can_access(other, issuer))
      wanted.insert({other, issuer});
  }
  return wanted;
}

std::vector<cuda::PeerAccess> enable_peer_access(const std::vector<Lane>& lanes,
                                                 const GpuPlacement& place) {
  const auto driver_allows = [](int device, int peer) {
    int ok = 0;
    P2P_CHECK(cudaDeviceCanAccessPeer(&ok, device, peer));
    return ok != 0;
  };
  std::vector<cuda::PeerAccess> peers;
  for (const auto& [dev, peer] : plan_peer_mappings(lanes, place, driver_allows))
    peers.emplace_back(dev, peer);
  return peers;
}

std::map<int, int> sm_kernels_per_device(const std::vector<Lane>& lanes, const BatchPlan& plan,
                                         const GpuPlacement& place) {
  std::map<int, int> kernels;
  for (const Lane& l : lanes) {
    if (transfer_method(l.method).traits().runs_on_sms) ++kernels[place.device(l.issuer)];
  }
  if (plan.fused_pair) kernels[place.device(lanes[0].issuer)] = 1;
  return kernels;
}

LaneRuns set_up_lanes(const std::vector<Lane>& lanes, std::uint64_t bytes, const BatchPlan& plan,
                      const MeasureOptions& opt, UtilityStreams& utility) {
  const GpuPlacement& place = opt.placement;
  const auto dev = [&](int gpu) { return place.device(gpu); };
  const std::map<int, int> sm_kernels = sm_kernels_per_device(lanes, plan, place);
  const auto allocate = [&](const Endpoint& where) {
    return Buffer::allocate(where, bytes, opt.host_memory, where.is_gpu() ? dev(where.gpu) : -1,
                            opt.host_cache);
  };
  LaneRuns runs;
  for (const Lane& l : lanes) {
    auto run = std::make_unique<LaneRun>();
    run->lane = l;
    run->src = allocate(l.src);
    run->dst = allocate(l.dst);
    run->stream = cuda::make_stream(dev(l.issuer));
    run->start = cuda::make_event(dev(l.issuer));
    run->end = cuda::make_event(dev(l.issuer));
    run->mismatches = cuda::make_device_buffer(dev(verifying_gpu(l)), sizeof(unsigned long long));
    const auto sharing = sm_kernels.find(dev(l.issuer));
    const CopierSetup setup{bytes, plan.copies, sharing == sm_kernels.end() ? 1 : sharing->second,
                            opt};
    run->copier = transfer_method(l.method).make_copier(l, setup);
    utility.of(owner_of(l.src, l));
    utility.of(verifying_gpu(l));
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace p2p::bench
