// The live topology as every subcommand sees it: hwloc and sysfs from the topology module,
// plus what only NVML can add (the virtualization mode that tells a pass-through VM apart).
// NVML is probed through the doctor's isolated probe, so a broken driver cannot crash `topo`.
#pragma once

#include "topology/snapshot.hpp"

namespace p2p::doctor {

topo::TopologySnapshot live_topology();

}  // namespace p2p::doctor
