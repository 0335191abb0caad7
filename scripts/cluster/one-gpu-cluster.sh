#!/usr/bin/env bash
# The live cluster path on one GPU host (no fixture): `node`, then `cluster` under mpirun with
# 4 ranks on this machine, three ways: --rank-per-gpu (the ranks share one host name: one chain),
# one chain per rank (4 chains at once on the one GPU, so their figures contend: the verdict is
# recorded, not expected), and a rank that stalls after its gate (no result at the deadline,
# exit 1). Figures use logical GPUs: they measure the tool, not the links. Needs a build with
# CUDA and MPI.
#
#   scripts/cluster/one-gpu-cluster.sh [OUT_DIR] [BUILD_DIR]
#
# P2P_CLUSTER_DEADLINE (300): seconds rank 0 waits for a host in the stalled-rank step.
# Exit status: 0 when every step ended as expected; else the first failing step's exit code
# (README "Exit codes"), or 1 where a step expected to fail did not fail that way. Each step's
# output and wall time in OUT_DIR/<step>.txt, documents beside them.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-p2pcheck-results/one-gpu-cluster-$(date -u +%Y%m%dT%H%M%SZ)}
build=${2:-build}
bin=$(realpath "$build/p2pcheck")
mkdir -p "$out"
out=$(realpath "$out")
status=0
mpirun=(mpirun --oversubscribe --timeout 900)
if [[ $EUID == 0 ]]; then mpirun+=(--allow-run-as-root); fi
chain=(--policy results/policies/default.json --logical-gpus 4 --sizes 64M --samples 3)

. scripts/lib/steps.sh  # step, seconds_since

step node "$bin" node --jsonl "$out/node.jsonl" "${chain[@]}"
step cluster-rank-per-gpu "${mpirun[@]}" -np 4 "$bin" cluster --rank-per-gpu "${chain[@]}" \
  --lines-dir "$out/lines-rank-per-gpu" --json "$out/cluster-rank-per-gpu.json" --junit "$out/cluster-rank-per-gpu.xml"
expect='0|1' step cluster-4-chains "${mpirun[@]}" -np 4 "$bin" cluster "${chain[@]}" \
  --lines-dir "$out/lines-4-chains" --json "$out/cluster-4-chains.json"
P2P_TEST_STALL_RANK=1:gate expect=1 step cluster-stalled-rank "${mpirun[@]}" -x P2P_TEST_STALL_RANK -np 2 "$bin" cluster \
  "${chain[@]}" --deadline "${P2P_CLUSTER_DEADLINE:-300}" --lines-dir "$out/lines-stalled" --json "$out/cluster-stalled.json"
if ! grep -q '"status": "no_result"' "$out/cluster-stalled.json" 2>/dev/null; then
  echo "== cluster-stalled-rank: expected a host with no result in cluster-stalled.json" | tee -a "$out/cluster-stalled-rank.txt"
  status=1
fi
expect=1 step merge-stalled-lines "$bin" merge "$out"/lines-stalled/*.jsonl --json "$out/merge-stalled.json"
exit $status
