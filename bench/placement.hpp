// Which CUDA device each GPU of a run lives on. Normally every GPU is a device of its own and
// its id is its CUDA ordinal. With logical GPUs (`bench --logical-gpus N`), N GPUs are placed
// round-robin on the selected devices, each owning its own buffers, streams and events, so
// the per-pair paths of an 8-GPU host (peer copies, SM kernels into the peer's memory, the
// staged pipeline, contention, the pointer chase) run on a host with fewer GPUs through the
// very code that a physical pair uses. Pure data and functions: tested on the CPU.
#pragma once

#include <string>
#include <vector>

namespace p2p::bench {

struct GpuPlacement {
  // Index: logical GPU id; value: CUDA ordinal. Empty: no logical GPUs, every id is a device.
  std::vector<int> device_of;

  bool logical() const { return !device_of.empty(); }
  // The CUDA ordinal that GPU `gpu` runs on (`gpu` itself without logical GPUs).
  int device(int gpu) const;
  // True when two different GPUs share one device: "peer access" between them is the
  // device's own memory, available without enabling anything.
  bool same_device(int a, int b) const;
  // The distinct devices used, ascending.
  std::vector<int> devices() const;
};

// `count` logical GPUs on `devices` (CUDA ordinals, ascending), round-robin: logical GPU i runs
// on devices[i % devices.size()]. InputError for count < 1 or no device.
GpuPlacement place_logical_gpus(int count, const std::vector<int>& devices);

// The ids the run measures: 0..N-1 for logical GPUs, else the selected ordinals themselves.
std::vector<int> gpu_ids(const GpuPlacement& placement, const std::vector<int>& selected_devices);

}  // namespace p2p::bench
