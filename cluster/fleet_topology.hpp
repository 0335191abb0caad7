// The fleet's topology rule: every host's GPU pairs must have the classes of the reference,
// which is a golden snapshot when one is given, else the topology most hosts share. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/host_lines.hpp"
#include "document/cluster_document.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

using doc::HostTopology;  // document/cluster_document.hpp

struct FleetTopology {
  // "golden FILE", "majority (3 of 4 hosts)", or "none: ..." (no host reported a topology, or
  // the largest groups tie: then only --golden can say which is right).
  std::string reference;
  bool ambiguous = false;           // no golden and no single largest group
  std::vector<HostTopology> hosts;  // in the order of the input
};

// hosts[i] is compared with the golden (when given) or the majority. Hosts without a topology
// are "unknown" and do not vote.
FleetTopology judge_fleet_topology(const std::vector<HostRun>& hosts,
                                   const std::optional<topo::TopologySnapshot>& golden,
                                   const std::string& golden_source);

}  // namespace p2p::cluster
