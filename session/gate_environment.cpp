#include "session/gate_environment.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/error.hpp"

namespace p2p::session {

namespace {

const char* const kJudged[] = {"NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "CUDA_VISIBLE_DEVICES"};

// Entries CUDA will try: "0,1,2" -> 3. "", "-1", "none", "NoDevFiles" hide every GPU.
std::size_t visible_entries(const std::string& value) {
  if (value.empty() || value == "-1" || value == "none" || value == "NoDevFiles") return 0;
  std::size_t n = 0;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    if (comma > start) ++n;
    start = comma + 1;
  }
  return n;
}

}  // namespace

std::vector<EnvironmentRisk> p2p_environment_risks(const std::map<std::string, std::string>& env,
                                                   std::size_t topology_gpus) {
  std::vector<EnvironmentRisk> out;
  if (const auto it = env.find("NCCL_P2P_DISABLE"); it != env.end() && it->second != "0")
    out.push_back({it->first, it->second,
                   "NCCL will not use P2P between GPUs: its traffic goes through host memory"});
  if (const auto it = env.find("NCCL_P2P_LEVEL");
      it != env.end() && (it->second == "LOC" || it->second == "0"))
    out.push_back({it->first, it->second, "NCCL uses P2P within one GPU only, never between GPUs"});
  if (const auto it = env.find("CUDA_VISIBLE_DEVICES"); it != env.end()) {
    const std::size_t visible = visible_entries(it->second);
    if (visible < topology_gpus)
      out.push_back({it->first, it->second,
                     "CUDA sees " + std::to_string(visible) + " of the " +
                         std::to_string(topology_gpus) + " GPUs the topology has"});
  }
  return out;
}

void judge_environment(topo::GateDecision& d, const std::vector<EnvironmentRisk>& risks,
                       const std::vector<std::string>& allowed) {
  for (const auto& r : risks) {
    const bool accepted = std::find(allowed.begin(), allowed.end(), r.variable) != allowed.end();
    topo::GateReason reason;
    reason.rule = "env.p2p";
    reason.verdict = accepted ? topo::GateVerdict::kNote : topo::GateVerdict::kBlock;
    reason.message = r.variable + "=" + r.value + " in the environment: " + r.why +
                     (accepted ? "; accepted by --allow-env " + r.variable
                               : "; this run cannot be about P2P (unset it, or --allow-env " +
                                     r.variable + " to accept it)");
    d.reasons.push_back(reason);
    if (!accepted) d.passed = false;
  }
}

std::map<std::string, std::string> acceptance_environment() {
  std::map<std::string, std::string> env;
  for (const char* name : kJudged)
    if (const char* v = std::getenv(name)) env[name] = v;
  return env;
}

void check_allowed_variable(const std::string& name) {
  for (const char* known : kJudged)
    if (name == known) return;
  throw InputError("--allow-env " + name +
                   ": not a variable the gate judges (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, "
                   "CUDA_VISIBLE_DEVICES)");
}

}  // namespace p2p::session
