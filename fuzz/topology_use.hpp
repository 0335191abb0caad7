// What the topology commands do with a snapshot they loaded: print it (text and JSON), diff it
// and gate it. A snapshot the readers accept must survive all of them.
#pragma once

#include "topology/diff.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/policy.hpp"
#include "topology/snapshot_json.hpp"
#include "topology/topo_text.hpp"

namespace p2p::fuzz {

inline void use_topology(const topo::TopologySnapshot& t) {
  (void)topo::format_topology_text(t);
  (void)topo::describe_environment(t.environment);
  (void)topo::snapshot_to_json_text(t);
  const topo::TopologyDiff d = topo::diff_topologies(t, t);
  (void)topo::format_diff_text(d, "a", "b");
  (void)nlohmann::json(d).dump();
  topo::GatePolicy strict;
  strict.min_gpus = 2;
  strict.max_path = topo::PathClass::kPix;
  strict.min_link = topo::MinLink{5, 16};
  const topo::GateDecision g = topo::evaluate_gate(t, t, strict);
  (void)topo::format_gate_text(g);
  (void)nlohmann::json(g).dump();
}

}  // namespace p2p::fuzz
