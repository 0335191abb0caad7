// NVLink link counts (the # of nvidia-smi's NV#) from the bandwidth matrix hwloc's NVML
// backend records as "NVLinkBandwidth". Pure, so it is tested without hwloc.
#pragma once

#include <cstdint>
#include <vector>

namespace p2p::topo {

// hwloc's values are MB/s per direction summed over the links joining two endpoints: 20000
// per NVLink 1.0 link, 25000 per link for NVLink 2.0-4.0, 50000 for NVLink 5.0. The version
// itself is not recorded, so the per-link rate is inferred (see nvlink_counts_from_bandwidth).
struct NvlinkBandwidth {
  std::vector<std::vector<std::uint64_t>> gpu_mbps;     // [i][j] between GPUs (diagonal ignored)
  std::vector<std::vector<std::uint64_t>> switch_mbps;  // [i][s] from GPU i to NVSwitch s
};

// The most NVLinks any NVIDIA GPU has had so far (NVML_NVLINK_MAX_LINKS): a total above
// 18 x 25000 MB/s can only be 50000 MB/s links.
constexpr int kMaxNvlinksPerGpu = 18;

// Links per GPU pair: direct links, plus, where both GPUs reach NVSwitches, the smaller of
// their link counts into the switch fabric (what nvidia-smi reports, NV18 on an HGX H100).
std::vector<std::vector<int>> nvlink_counts_from_bandwidth(const NvlinkBandwidth& bw);

}  // namespace p2p::topo
