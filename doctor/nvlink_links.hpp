// NVLink per GPU pair from what NVML says about each GPU's links: the PCI bus id at the far end
// of every active link. A pure function, so the counting rules are tested without NVLink.
#pragma once

#include <string>
#include <vector>

namespace p2p::doctor {

// counts[i][j] = links joining gpu i and gpu j. A link whose far end is another listed GPU is
// direct; one whose far end is anything else is an NVSwitch port, and two GPUs that both
// reach switches are joined by min(switch links of i, switch links of j), as on HGX boards
// where `nvidia-smi topo -m` shows NV18 for every pair. Bus ids compare case-insensitively
// and with 4- or 8-digit domains.
std::vector<std::vector<int>> nvlink_counts_from_remotes(
    const std::vector<std::string>& gpu_bus_ids,
    const std::vector<std::vector<std::string>>& remotes);

}  // namespace p2p::doctor
