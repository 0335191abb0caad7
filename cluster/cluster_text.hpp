// What `merge` and `cluster` print for people: hosts ranked by figures lost with the doctor's
// root cause beside every failed one, hosts without a result with their last step, the odd
// topologies pair by pair, the fleet outliers, and last the fleet's verdict block: its reasons,
// most important first, and one line "p2pcheck <command>: PASS|FAIL — <first reason>".
#pragma once

#include <string>

#include "cluster/merge.hpp"

namespace p2p::cluster {

// `command`: merge | cluster, as the last line names it.
std::string format_cluster_text(const ClusterRun& run, const OutlierOptions& rule,
                                const std::string& command);

}  // namespace p2p::cluster
