// The gate in front of every measuring subcommand (bench, nccl), the part that judges: the
// files read before any GPU is touched (a bad file exits 2 whatever the host), the decision on
// a topology, and the record of it that goes into the results document. Pure but for the file
// reads; session/measurement_gate.hpp feeds it the live topology.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "acceptance/policy.hpp"
#include "document/bench_document.hpp"
#include "session/measurement_options.hpp"
#include "topology/gate.hpp"
#include "topology/policy.hpp"
#include "topology/snapshot.hpp"

namespace p2p::session {

struct GateFiles {
  std::optional<topo::TopologySnapshot> expected;
  std::optional<topo::GatePolicy> policy;
  // The same --policy file's acceptance keys (defaults where it has none, or no file).
  accept::AcceptancePolicy acceptance;
};

// InputError naming a --expect or --policy file that cannot be read.
GateFiles read_gate_files(const MeasurementGateOptions& o);

// The --policy and --expect files of gate, check and node, the policy first; the golden
// topology's source is the file name given, which the decision names. `expect_gpus` (> 0) raises
// the policy's min_gpus to it: a host that shows fewer GPUs is blocked before it is measured.
GateFiles read_policy_and_golden(const std::string& policy, const std::string& expect,
                                 int expect_gpus = 0);

struct TopologyAndGate {
  topo::TopologySnapshot snapshot;
  doc::GateRecord gate;
  bool blocked = false;  // the gate blocked and --skip-gate was not given
};

// The gate's decision on `snapshot` before measuring: a block with --skip-gate is recorded,
// not enforced. `peer_access` answers the require_p2p policy (empty: not asked).
// `env` is the environment to judge (gate_environment.hpp): empty for a capture from elsewhere.
TopologyAndGate judge_gate(topo::TopologySnapshot snapshot, const GateFiles& files,
                           const topo::PeerAccessCheck& peer_access, bool skip_gate,
                           const std::map<std::string, std::string>& env = {},
                           const std::vector<std::string>& allow_env = {});

// The document's record of a gate decision: "passed", or how many reasons blocked, and whether
// the run measured anyway (--skip-gate). judge_gate and the node chain's bench step both keep it.
doc::GateRecord gate_record(const topo::GateDecision& decision, bool skip_gate);

// The gate's reasons and the line saying nothing was measured, for stderr.
std::string blocked_message(const std::string& command, const TopologyAndGate& tg);

}  // namespace p2p::session
