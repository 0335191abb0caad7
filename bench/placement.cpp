#include "bench/placement.hpp"

#include <algorithm>
#include <set>

#include "common/error.hpp"

namespace p2p::bench {

int GpuPlacement::device(int gpu) const {
  if (!logical()) return gpu;
  if (gpu < 0 || static_cast<std::size_t>(gpu) >= device_of.size()) {
    throw std::out_of_range("logical GPU " + std::to_string(gpu) + " is not placed (" +
                            std::to_string(device_of.size()) + " logical GPUs)");
  }
  return device_of[static_cast<std::size_t>(gpu)];
}

bool GpuPlacement::same_device(int a, int b) const { return a != b && device(a) == device(b); }

std::vector<int> GpuPlacement::devices() const {
  const std::set<int> distinct(device_of.begin(), device_of.end());
  return {distinct.begin(), distinct.end()};
}

GpuPlacement place_logical_gpus(int count, const std::vector<int>& devices) {
  if (count < 1)
    throw InputError("--logical-gpus: needs at least 1 GPU, got " + std::to_string(count));
  if (devices.empty())
    throw InputError("--logical-gpus: no CUDA device to place the logical GPUs on");
  GpuPlacement p;
  for (int i = 0; i < count; ++i)
    p.device_of.push_back(devices[static_cast<std::size_t>(i) % devices.size()]);
  return p;
}

std::vector<int> gpu_ids(const GpuPlacement& placement, const std::vector<int>& selected_devices) {
  if (!placement.logical()) return selected_devices;
  std::vector<int> ids(placement.device_of.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  return ids;
}

}  // namespace p2p::bench
