// Everything a bandwidth case holds for its lanes, made before the first sample: peer mappings,
// each lane's buffers, stream, events, verification counter and its method's copier (with
// whatever that method holds: an SM copy shape, a staged pipeline), and one utility stream per
// GPU for the untimed fills and checks. Every GPU id is a (possibly logical) GPU; each CUDA
// call is made on the device the placement puts it on.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/measure/batch_plan.hpp"
#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/methods/transfer_method.hpp"
#include "common/cuda_resources.hpp"

namespace p2p::bench {

struct LaneRun {
  Lane lane;
  Buffer src;
  Buffer dst;
  cuda::Stream stream;  // on the issuer
  cuda::Event start;
  cuda::Event end;
  cuda::DevicePtr mismatches;          // on the verifying GPU
  std::unique_ptr<LaneCopier> copier;  // the lane's method: enqueues its copies
};

using LaneRuns = std::vector<std::unique_ptr<LaneRun>>;

// "gpu0->host": names a lane in hang messages.
std::string lane_name(const Lane& l);

// The GPU whose memory holds the endpoint (the issuer for host memory).
int owner_of(const Endpoint& e, const Lane& lane);

// One stream per GPU (logical GPUs of one device each have their own), made on first use, off
// the timed streams: pattern fills and verification.
class UtilityStreams {
 public:
  explicit UtilityStreams(GpuPlacement placement) : place_(std::move(placement)) {}
  cudaStream_t of(int gpu);
  // Waits for every stream; HangError naming `what` past the deadline.
  void wait_all(Deadline deadline, const std::string& what);

 private:
  GpuPlacement place_;
  std::map<int, cuda::Stream> streams_;
};

// The peer mappings the lanes need, as (device, peer device), between devices only: two logical
// GPUs of one device reach each other's memory as it is. Each lane's method says which
// (PeerMapping): none, the issuer mapping the other's memory, or also the reverse where
// `can_access(other, issuer)` allows it. Pure: `can_access` answers for the driver.
using CanAccessPeer = std::function<bool(int device, int peer_device)>;
std::set<std::pair<int, int>> plan_peer_mappings(const std::vector<Lane>& lanes,
                                                 const GpuPlacement& place,
                                                 const CanAccessPeer& can_access);

// plan_peer_mappings with cudaDeviceCanAccessPeer, each mapping enabled.
std::vector<cuda::PeerAccess> enable_peer_access(const std::vector<Lane>& lanes,
                                                 const GpuPlacement& place);

// How many kernels share each issuing device's SMs during a sample (device -> kernels): lanes
// whose method runs on SMs, on one device, split its SMs; a fused pair is one kernel. Pure.
std::map<int, int> sm_kernels_per_device(const std::vector<Lane>& lanes, const BatchPlan& plan,
                                         const GpuPlacement& place);

// Each lane's resources, in lane order, and the utility streams of the GPUs owning its source
// and verifying it. Separate SM kernels sharing a device split its SMs (as they would split them
// anyway once running); a fused pair counts as one kernel. std::invalid_argument for a lane of
// a latency method.
LaneRuns set_up_lanes(const std::vector<Lane>& lanes, std::uint64_t bytes, const BatchPlan& plan,
                      const MeasureOptions& opt, UtilityStreams& utility);

}  // namespace p2p::bench
