// The policy file `--policy` names: the gate's keys (topology/policy.hpp: what a host must offer
// before it is measured) and the acceptance keys (acceptance/policy.hpp: what its figures must
// show) in one JSON object. Strict: a key neither knows is refused, naming every known key.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "acceptance/policy.hpp"
#include "topology/policy.hpp"

namespace p2p::accept {

struct PolicyFile {
  topo::GatePolicy gate;
  AcceptancePolicy acceptance;
};

// InputError "<source>: <key>: <problem>" for anything wrong.
PolicyFile policy_file_from_json(const nlohmann::json& j, const std::string& source);
PolicyFile read_policy_file(const std::string& path);

}  // namespace p2p::accept
