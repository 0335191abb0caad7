// What `merge` and `cluster` print for people: hosts ranked by figures lost with the doctor's
// root cause beside every failed one, hosts without a result with their last step, the odd
// topologies pair by pair, the fleet outliers, and a last line with the verdict.
#pragma once

#include <string>

#include "cluster/merge.hpp"

namespace p2p::cluster {

std::string format_cluster_text(const ClusterRun& run, const OutlierOptions& rule);

}  // namespace p2p::cluster
