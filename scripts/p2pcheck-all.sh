#!/usr/bin/env bash
# The main job on a fresh machine: install, build, then run the whole acceptance chain on this
# host — doctor → topo → gate → bench → nccl, and an HTML report of each — keeping every artefact in
# one folder.
#
#   scripts/p2pcheck-all.sh [OUT_DIR] [-- gate arguments, e.g. --expect golden.json --policy policy.json]
#
# Without gate arguments the gate uses results/policies/default.json (at least one GPU). The
# same arguments go to `bench` and `nccl`, which run the gate again on what they measure.
# Exit status: the first failing step's p2pcheck exit code (see README "Exit codes"); 0 when all pass.
# The last line says PASS or FAIL with the first failing step's own verdict line; the lines above
# it give every step's exit code and verdict.
#
# P2P_SKIP_SETUP=1 leaves out the package install and the build, and P2PCHECK_BIN names the
# executable (default build/p2pcheck): for a host where both are done, and for the tests.
set -uo pipefail
cd "$(dirname "$0")/.."

out=${1:-p2pcheck-results/$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ)}
shift $(( $# > 0 ? 1 : 0 ))
[[ ${1:-} == "--" ]] && shift
gate_args=("$@")
((${#gate_args[@]})) || gate_args=(--policy results/policies/default.json)

if [[ ${P2P_SKIP_SETUP:-0} != 1 ]]; then
  scripts/install-deps.sh || exit 4
  scripts/build.sh >/dev/null || { echo "p2pcheck-all: build failed (run scripts/build.sh to see why)" >&2; exit 4; }
fi
mkdir -p "$out"
bin=${P2PCHECK_BIN:-build/p2pcheck}
status=0

summary=()   # one line per step: its exit code and the verdict line it ended with
first_failure=""

# The line a step's output ends with, in the grammar every command ends with:
# "p2pcheck <command>: PASS | PASS with warnings | FAIL | BLOCKED | ERROR — <first reason>".
verdict_line() {
  grep -E '^p2pcheck [a-z ]+: (PASS|FAIL|BLOCKED|ERROR)' "$1" | tail -n 1
}

step() {  # step NAME CMD...: run, tee the output into OUT/NAME.txt, remember the first failure
  local name=$1; shift
  echo "== $name: $*"
  "$@" 2>&1 | tee "$out/$name.txt"
  local rc=${PIPESTATUS[0]}
  echo "== $name: exit $rc"
  local line
  line=$(verdict_line "$out/$name.txt")
  summary+=("$(printf '  %-6s exit %-3s %s' "$name" "$rc" "${line:-(no verdict line)}")")
  if (( status == 0 && rc != 0 )); then
    status=$rc
    first_failure="$name: ${line:-exit $rc}"
  fi
  return "$rc"
}

step doctor "$bin" doctor --save-facts "$out/doctor-facts.json" --junit "$out/doctor.junit.xml"
step topo "$bin" topo --json "$out/topology.json"
if step gate "$bin" gate "${gate_args[@]}" --junit "$out/gate.junit.xml"; then
  # bench.jsonl holds each figure as it finishes: a run killed halfway still leaves them.
  step bench "$bin" bench "${gate_args[@]}" --json "$out/bench.json" --jsonl "$out/bench.jsonl"
  step nccl "$bin" nccl "${gate_args[@]}" --json "$out/nccl.json"
  # Pages for people beside the documents for machines (a report never changes the exit status).
  for doc in bench nccl; do
    [[ -s $out/$doc.json ]] && "$bin" report "$out/$doc.json" --html "$out/$doc.html"
  done
else
  echo "== bench and nccl skipped: the gate did not pass (see $out/gate.txt)"
fi
echo "p2pcheck-all: every step, in order:"
printf '%s\n' "${summary[@]}"
echo "p2pcheck-all: results in $out"
# The one line CI reads: PASS only when every step passed.
if (( status == 0 )); then
  echo "p2pcheck-all: PASS (exit 0)"
else
  echo "p2pcheck-all: FAIL (exit $status) — $first_failure"
fi
exit "$status"
