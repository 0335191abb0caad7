#include "session/gate_run.hpp"

#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "doctor/collect/live_topology.hpp"
#include "session/gate_environment.hpp"
#include "session/gate_health.hpp"
#include "session/gate_verdict.hpp"
#include "session/machine_outputs.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::session {

namespace {
constexpr int kHealthProbeTimeoutMs = 15000;  // NVML answers in well under a second when well
}  // namespace

GateOutcome run_gate(const GateRequest& r, const topo::PeerAccessCheck& live_peer_access) {
  if (r.expect.empty() && r.policy.empty() && r.expect_gpus == 0)
    throw InputError(
        "gate: nothing to check: give --expect FILE (golden topology), --policy FILE and/or "
        "--expect-gpus N");
  // Every file before discovering anything, so bad input fails fast and alone.
  const GateFiles files = read_policy_and_golden(r.policy, r.expect, r.expect_gpus);
  for (const auto& v : r.allow_env) check_allowed_variable(v);
  if (!r.p2p.empty() && r.input.empty())
    throw InputError(
        "gate: --p2p describes a captured topology: give it with --input (this host is checked live)");
  const bool live = r.input.empty();
  topo::TopologySnapshot t = live ? doctor::live_topology() : topo::load_topology(r.input);
  if (!r.p2p.empty()) topo::apply_p2p_status_file(t, r.p2p);

  GateOutcome o;
  o.decision = topo::evaluate_gate(t, files.expected, files.policy,
                                   live ? live_peer_access : topo::PeerAccessCheck{});
  // A GPU the doctor finds failing may not run benchmarks, whatever the topology says.
  if (live) block_failing_gpus(o.decision, t, live_failing_gpus(kHealthProbeTimeoutMs));
  if (live)
    judge_environment(o.decision, p2p_environment_risks(acceptance_environment(), t.gpus.size()),
                      r.allow_env);
  o.source = live ? "this host" : r.input;
  o.gpu_count = t.gpus.size();
  o.environment = t.environment;
  o.host = live || t.hostname.empty() ? this_hostname() : t.hostname;
  o.exit_code = o.decision.passed ? kExitOk : kExitFailed;
  return o;
}

}  // namespace p2p::session
