// Which groups an `infer` run measures and where each rank runs: from this host's topology (its
// GPUs matched to CUDA ordinals by PCI bus id, so only GPUs CUDA sees are grouped) or, with
// --logical-gpus, logical groups placed round-robin on the devices. Pure: a function of the
// snapshot and the bus id of every CUDA ordinal, tested on the repository's topologies.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "infer/plan.hpp"
#include "infer/results.hpp"
#include "topology/snapshot.hpp"

namespace p2p::infer {

// A group to measure: the ranks' CUDA devices and NCCL host ids, and how the results name it.
struct Target {
  GroupResult result;  // tp, gpus, pci ids, signature, description, alike; nothing measured yet
  std::vector<int> devices;
  std::vector<std::string> host_ids;  // "" = NCCL's own (nccl/placement.hpp)
};

// --logical-gpus N: per TP size up to N one group of logical GPUs 0..tp-1, rank r on
// devices[r % devices.size()]. `bus_ids[o]` is CUDA ordinal o's PCI bus id.
std::vector<Target> logical_targets(const InferPlan& plan, int logical_gpus,
                                    const std::vector<int>& devices,
                                    const std::vector<std::string>& bus_ids);

struct HostTargets {
  std::vector<Target> targets;
  int usable = 0;  // GPUs of the topology that CUDA sees among `devices`
};

// The candidate groups of every TP size (groups.hpp) among the topology's GPUs that are CUDA
// ordinals in `devices`; each rank's device is its GPU's ordinal.
HostTargets host_targets(const InferPlan& plan, const topo::TopologySnapshot& t,
                         const std::vector<int>& devices, const std::vector<std::string>& bus_ids,
                         std::size_t max_groups);

}  // namespace p2p::infer
