// The gate's policy file: what a host must offer before benchmarks may run on it.
//   {"min_gpus": 8, "max_path": "NODE", "forbid": ["SYS"],
//    "min_link": {"gen": 4, "width": 16}, "require_p2p": true, "require_cliques": true}
// Every key is optional; unknown keys and wrong types are errors naming the key.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::topo {

struct MinLink {
  int gen = 0;
  int width = 0;
};

struct GatePolicy {
  std::optional<int> min_gpus;
  std::optional<PathClass> max_path;  // worst pair class allowed (NV best ... SYS worst)
  std::vector<PathClass> forbid;      // pair classes not allowed at all
  std::optional<MinLink> min_link;    // per GPU: generation and lane count
  bool require_p2p = false;           // every pair must have CUDA peer access (a live check)
  // In a VFIO guest, every GPU must carry a GPUDirect clique ID (the hypervisor's virtual P2P
  // approval capability); without one the driver refuses P2P on the emulated tree.
  bool require_cliques = false;
};

// Strict parse (common/strict_json.hpp): an unknown key is refused. InputError
// "<source>: max_path: ..." on any problem. `other_keys` belong to another reader of the same
// file (the acceptance thresholds, acceptance/policy_file.hpp): left alone here, and named
// among the known keys when a key is unknown.
GatePolicy policy_from_json(const nlohmann::json& j, const std::string& source,
                            const std::vector<std::string>& other_keys = {});
GatePolicy read_policy_file(const std::string& path);

void to_json(nlohmann::json& j, const GatePolicy& p);

}  // namespace p2p::topo
