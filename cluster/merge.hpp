// merge: many hosts' records -> one fleet verdict. The same function serves `p2pcheck merge`
// (files on disk) and `p2pcheck cluster` (lines gathered over MPI). Pure.
//
// The fleet gate passes when every host reached the end of its chain, passed its own gate and
// has the reference's pair classes (fleet_topology.hpp). A host fails when it has no result,
// its chain failed (doctor, gate, a figure that failed verification), its topology differs, or
// it is a fleet outlier on the worse side of any figure (outliers.hpp). The fleet passes when
// the gate passes and no host fails.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/fleet_topology.hpp"
#include "cluster/host_lines.hpp"
#include "cluster/outliers.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

struct HostVerdict {
  std::string host;    // HostRun::name()
  std::string source;  // file or rank
  std::string status;  // pass | fail | no_result
  std::string last_step;
  std::optional<int> exit_code;     // the node chain's, when it ended
  std::optional<bool> gate_passed;  // its own gate; null before the gate ran
  std::string doctor_state;         // healthy, degraded, ...; "" before the doctor ran
  std::string root_cause;           // the doctor's headline (most likely cause first)
  HostTopology topology;
  std::size_t figures_ok = 0;
  std::size_t figures_lost = 0;  // worse-side outliers + figures the fleet has and this host lacks
  std::size_t outliers_worse = 0;
  std::vector<std::string> reasons;  // why it failed, one line each, most basic first
  std::vector<std::string> notes;    // what reading its lines had to tolerate
};

struct MergeOptions {
  std::optional<topo::TopologySnapshot> golden;
  std::string golden_source;
  OutlierOptions outliers;
};

struct ClusterRun {
  static constexpr int kVersion = 1;
  static constexpr const char* kSchema = "p2pcheck.cluster.run";
  std::string topology_reference;
  bool gate_passed = true;
  std::vector<std::string> gate_reasons;  // why the fleet gate failed, one line each
  bool passed = true;                     // gate passed and no host failed
  std::vector<HostVerdict> hosts;         // most figures lost first, then by name
  std::vector<FigureSpread> figures;
  int exit_code() const;  // 0 passed, 1 otherwise
};

ClusterRun merge_hosts(const std::vector<HostRun>& hosts, const MergeOptions& options);

}  // namespace p2p::cluster
