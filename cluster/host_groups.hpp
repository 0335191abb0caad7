// Launchers that start one task per GPU (Slurm --ntasks-per-node=8, an MPIJob with a slot per
// GPU) give a host several ranks; the node chain must run once per host, since it measures
// every GPU of it. Pure: the host name each rank reported -> which rank runs its host's chain.
#pragma once

#include <string>
#include <vector>

namespace p2p::cluster {

// leader[r]: the lowest rank whose host name equals rank r's. One-rank-per-host launches give
// leader[r] == r. A rank with an empty name is a host of its own (nothing to group it by).
std::vector<int> host_leaders(const std::vector<std::string>& rank_hosts);

}  // namespace p2p::cluster
