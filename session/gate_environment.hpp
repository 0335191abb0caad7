// An acceptance run that cannot be about P2P says so. NCCL_P2P_DISABLE, NCCL_P2P_LEVEL=LOC (or 0)
// and a CUDA_VISIBLE_DEVICES that hides GPUs the topology has change what is measured: NCCL then
// moves data through host memory, or the run sees fewer GPUs than the host has, and the figures
// would pass or fail for a reason that is not the host's. Each such variable blocks the gate
// ("env.p2p"), naming it; --allow-env VAR accepts it, and the gate keeps a note saying so.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "topology/gate.hpp"

namespace p2p::session {

struct EnvironmentRisk {
  std::string variable;  // "NCCL_P2P_DISABLE"
  std::string value;
  std::string why;  // "NCCL will not use P2P between GPUs"
};

// The risky variables of `env` (name -> value) on a host whose topology has `topology_gpus` GPUs.
// Pure.
std::vector<EnvironmentRisk> p2p_environment_risks(const std::map<std::string, std::string>& env,
                                                   std::size_t topology_gpus);

// One "env.p2p" reason per risk: blocking, or a note where `allowed` names the variable. Pure.
void judge_environment(topo::GateDecision& d, const std::vector<EnvironmentRisk>& risks,
                       const std::vector<std::string>& allowed);

// The variables p2p_environment_risks reads, from this process's environment.
std::map<std::string, std::string> acceptance_environment();

// An --allow-env value: a variable this module judges; InputError naming the others.
void check_allowed_variable(const std::string& name);

}  // namespace p2p::session
