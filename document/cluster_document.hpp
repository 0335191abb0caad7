// The cluster document (schema p2pcheck.cluster.run; results/README.md describes every field)
// that `merge` and `cluster` write: the fleet gate, one entry per host with its verdict, one per
// figure with its fleet median and outliers, the run's one verdict, and an `nccl` section that
// stays null until the multi-host NCCL runs fill it. Version 2 added `verdict`; version 1 is
// still read (its verdict null). cluster/merge.hpp fills the records; this is their data and JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/fleet_lines.hpp"
#include "document/outcome.hpp"
#include "document/verdict.hpp"

namespace p2p::doc {

// A host's GPU pair classes against the fleet's reference topology.
struct HostTopology {
  TopologyMatch match = TopologyMatch::kUnknown;
  // One line per difference: "GPU0-GPU1 NODE where the reference has PHB", or the GPU counts.
  std::vector<std::string> differences;
};

// The fleet's outlier rule: the modified z-score (cluster/outliers.hpp).
struct OutlierRule {
  double z_threshold = 3.5;
  // The MAD is at least this fraction of |median|: hosts with identical figures (MAD 0) would
  // otherwise make any difference infinitely significant. With 0.02, a host is flagged only
  // when it also lies more than about 10% from the median (3.5 * 0.02 / 0.6745).
  double mad_floor_fraction = 0.02;
  // Below this many hosts a median says nothing about which one is odd.
  std::size_t min_hosts = 3;
};

struct Deviation {
  std::string host;
  double value = 0;
  double z = 0;          // signed: negative below the median
  double delta_pct = 0;  // (value - median) / median * 100
  bool worse = false;    // below the fleet for bandwidth, above it for latency
};

struct FigureSpread {
  std::string key;        // FleetFigure::key()
  FleetFigure figure;     // the first host's (case, pair, size, kind; its value is not the fleet's)
  std::size_t hosts = 0;  // hosts with an "ok" value
  double median = 0;
  double mad = 0;                   // before the floor
  bool judged = false;              // hosts >= min_hosts
  std::vector<Deviation> outliers;  // |z| > threshold, in host order
};

struct HostVerdict {
  std::string host;    // the host's name, or its source where it named none
  std::string source;  // file or rank
  HostStatus status = HostStatus::kPass;
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
  // What its own run's verdict says is true of the whole run (shared, interrupted, logical GPUs,
  // ...), read from its run_end line; a caveat --allow-caveat does not name fails the host.
  std::vector<Caveat> caveats;
};

// One merge of the hosts' records.
struct ClusterRun {
  std::string topology_reference;
  bool gate_passed = true;
  std::vector<std::string> gate_reasons;  // why the fleet gate failed, one line each
  bool passed = true;                     // gate passed and no host failed
  std::vector<HostVerdict> hosts;         // most figures lost first, then by name
  std::vector<FigureSpread> figures;
  RunVerdict verdict;  // every host and judged figure a check (cluster/fleet_verdict.hpp)
  int exit_code() const { return doc::exit_code(verdict); }
};

struct ClusterDocument {
  static constexpr const char* kSchema = "p2pcheck.cluster.run";
  static constexpr int kVersion = 2;
  static constexpr int kOldestReadableVersion = 1;
  std::string written_by;  // merge | cluster
  std::string tool_version;
  std::string created_utc;
  int ranks = 0;  // MPI ranks of a `cluster` run; 0 for merge
  OutlierRule outlier_rule;
  ClusterRun run;
  // Read from a version 1 document: the verdict it did not have (run.verdict is then empty).
  bool has_verdict = true;
};

void to_json(nlohmann::json& j, const ClusterDocument& d);  // the current version
// InputError for another schema, a version outside 1..2 or a malformed document.
void from_json(const nlohmann::json& j, ClusterDocument& d);

}  // namespace p2p::doc
