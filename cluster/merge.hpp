// merge: many hosts' records -> one fleet verdict. The same function serves `p2pcheck merge`
// (files on disk) and `p2pcheck cluster` (lines gathered over MPI). Pure.
//
// The fleet gate passes when every host reached the end of its chain, passed its own gate and
// has the reference's pair classes (fleet_topology.hpp). A host fails when it has no result,
// its chain failed (doctor, gate, a figure that failed verification), its topology differs, or
// it is a fleet outlier on the worse side of any figure (outliers.hpp), or its own run's verdict
// carries a caveat (shared, interrupted, logical GPUs, ...) that --allow-caveat does not name. The
// fleet passes when the gate passes and no host fails; its verdict (fleet_verdict.hpp) says so with
// the reasons.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/fleet_topology.hpp"
#include "cluster/host_lines.hpp"
#include "cluster/outliers.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

// The verdict records are the cluster document's (document/cluster_document.hpp).
using doc::ClusterRun;
using doc::HostVerdict;

struct MergeOptions {
  std::optional<topo::TopologySnapshot> golden;
  std::string golden_source;
  OutlierOptions outliers;
  std::string written_by = "merge";  // merge | cluster: who judged the fleet's verdict
  // --allow-caveat: caveats of a host's run that do not fail it (still shown, as warnings).
  std::set<doc::CaveatKind> allowed_caveats;
};

ClusterRun merge_hosts(const std::vector<HostRun>& hosts, const MergeOptions& options);

}  // namespace p2p::cluster
