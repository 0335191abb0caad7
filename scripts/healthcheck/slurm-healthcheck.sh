#!/usr/bin/env bash
# Slurm HealthCheckProgram: `p2pcheck check --quick` (doctor, topology, gate; no benchmark) on
# this node. Slurm runs it as root on each node and kills it after 60 s, and does not act on
# its exit status, so a node that fails drains itself here, with p2pcheck's verdict as reason.
#
#   slurm.conf:  HealthCheckProgram=/usr/local/sbin/p2pcheck-slurm-healthcheck
#                HealthCheckInterval=600
#                HealthCheckNodeState=IDLE
#
# env: P2PCHECK          the executable (default /usr/local/bin/p2pcheck)
#      P2PCHECK_POLICY   gate policy, used when readable (default /etc/p2pcheck/policy.json)
#      P2PCHECK_EXPECT   golden topology of this node class, used when readable (optional)
#      P2PCHECK_GPUS     the GPUs this node must have, e.g. 8: fewer drains it (optional)
#      P2PCHECK_PROM     also write a node_exporter textfile here (optional)
#      P2PCHECK_ARGS     more arguments for `p2pcheck check --quick` (optional)
#      SCONTROL          scontrol (default scontrol)
# Exit status: p2pcheck's (0 healthy, 1 unhealthy: drained), 124 when it ran out of time
# (drained). Bad input (2: a missing or broken policy) is logged, never drained on: a typo in a
# shared config file must not drain the whole cluster.
set -uo pipefail

p2pcheck=${P2PCHECK:-/usr/local/bin/p2pcheck}
policy=${P2PCHECK_POLICY:-/etc/p2pcheck/policy.json}
scontrol=${SCONTROL:-scontrol}
node=${SLURMD_NODENAME:-$(hostname -s)}

args=(check --quick --brief --probe-timeout 15)
[[ -r $policy ]] && args+=(--policy "$policy")
[[ -n ${P2PCHECK_EXPECT:-} && -r $P2PCHECK_EXPECT ]] && args+=(--expect "$P2PCHECK_EXPECT")
[[ -n ${P2PCHECK_GPUS:-} ]] && args+=(--expect-gpus "$P2PCHECK_GPUS")
[[ -n ${P2PCHECK_PROM:-} ]] && args+=(--prom "$P2PCHECK_PROM")
# shellcheck disable=SC2206  # a list of words on purpose
[[ -n ${P2PCHECK_ARGS:-} ]] && args+=(${P2PCHECK_ARGS})

out=$(timeout 50 "$p2pcheck" "${args[@]}" 2>&1)
rc=$?
last=${out##*$'\n'}
case $rc in
  0) ;;
  2) logger -t p2pcheck "health check not run on $node: $last" 2>/dev/null || echo "$last" >&2 ;;
  *) reason="p2pcheck exit $rc: $last"
     "$scontrol" update NodeName="$node" State=DRAIN Reason="${reason:0:240}" ;;
esac
exit "$rc"
