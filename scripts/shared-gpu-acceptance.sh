#!/usr/bin/env bash
# Two p2pcheck runs on one GPU, and runs stopped by SIGTERM, on a GPU host:
#   1. bench A runs; bench B starts on the same GPU while A measures: B's document must say
#      `"shared": true` and B must fail (exit 1) with the reason "shared" first (A's is shared
#      too when B was still running as A finished; reported only);
#   2. while A' runs, `bench --exclusive` must refuse at once: exit 6, one line naming the PID;
#   3. `nccl` (one process) gets SIGTERM mid-sweep: exit 143, document marked interrupted, and
#      its --jsonl file keeps one nccl_result line per finished case;
#   4. the same with 2 rank processes on GPU 0: exit 143, interrupted, no rank process left;
# and B's document names each GPU by UUID, as its Prometheus export does.
# Each signal is sent to a run started with setsid (a process group of its own), as a service
# manager or scheduler would send it.
#
#   scripts/shared-gpu-acceptance.sh [OUT_DIR] [BUILD_DIR]
#
# Exit status: 0 when every step behaved as expected, else 1. Everything is kept in OUT_DIR.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-p2pcheck-results/shared-gpu-$(date -u +%Y%m%dT%H%M%SZ)}
build=${2:-build}
bin=$build/p2pcheck
mkdir -p "$out"
export P2P_LOCK_DIR=$out/locks  # this run's locks only, and where the script can see them
status=0
policy=(--policy results/policies/default.json)
long=(bench "${policy[@]}" --gpus 0 --sizes 64M,256M,1G --samples 50)

. scripts/lib/steps.sh  # seconds_since
fail() { echo "== FAILED: $*" | tee -a "$out/summary.txt"; status=1; }
ok() { echo "== ok: $*" | tee -a "$out/summary.txt"; }

# Waits (up to 120 s) until PID holds its lock on a GPU: it is then past the preflight and the
# "before" look, and measuring.
wait_for_lock() {
  local pid=$1
  for _ in $(seq 1200); do
    compgen -G "$P2P_LOCK_DIR/*.$pid.lock" >/dev/null && { sleep 2; return 0; }
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# 1. Two runs at once.
"$bin" "${long[@]}" --json "$out/bench-A.json" >"$out/bench-A.txt" 2>&1 &
a=$!
if wait_for_lock "$a"; then
  "$bin" bench "${policy[@]}" --gpus 0 --sizes 64M --json "$out/bench-B.json" >"$out/bench-B.txt" 2>&1
  echo "bench B: exit $?" >>"$out/bench-B.txt"
else
  fail "bench A never took its lock (see bench-A.txt)"
fi
wait "$a"
echo "bench A: exit $?" >>"$out/bench-A.txt"
if grep -q '"shared": true' "$out/bench-B.json" 2>/dev/null &&
   grep -q '^p2pcheck bench: FAIL — shared run: ' "$out/bench-B.txt" &&
   grep -q '^bench B: exit 1$' "$out/bench-B.txt"; then
  ok "bench B, started while A measured, is marked shared and fails with the reason shared"
else
  fail "bench B not marked shared or not failed for it (bench-B.json, bench-B.txt)"
fi
# Each GPU record carries its UUID as nvidia-smi prints it, and the Prometheus export labels with it.
if grep -Eq '"uuid": "GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"' "$out/bench-B.json" 2>/dev/null &&
   "$bin" export "$out/bench-B.json" --prom "$out/bench-B.prom" && grep -q 'UUID="GPU-' "$out/bench-B.prom"; then
  ok "GPU records carry their UUID; the Prometheus export labels figures with it"
else
  fail "no GPU UUID in bench-B.json or bench-B.prom"
fi
grep -q '"shared": true' "$out/bench-A.json" 2>/dev/null && ok "bench A marked shared too" ||
  echo "== note: bench A not marked shared (B had ended before A's last look)" | tee -a "$out/summary.txt"

# 2. --exclusive refuses while another run holds the GPU.
"$bin" "${long[@]}" >"$out/bench-A2.txt" 2>&1 &
a=$!
if wait_for_lock "$a"; then
  "$bin" bench "${policy[@]}" --gpus 0 --sizes 64M --exclusive >"$out/bench-exclusive.txt" 2>&1
  rc=$?
  echo "exit $rc" >>"$out/bench-exclusive.txt"
  if [[ $rc == 6 ]] && grep -q "^p2pcheck: busy: --exclusive: GPU .* is in use: .*pid $a\b" "$out/bench-exclusive.txt"; then
    ok "bench --exclusive refused with exit 6 naming pid $a"
  else
    fail "bench --exclusive: exit $rc (see bench-exclusive.txt)"
  fi
else
  fail "bench A' never took its lock"
fi
kill -TERM "$a" 2>/dev/null
wait "$a"

# 3 and 4. nccl stopped by SIGTERM, in one process and with rank processes.
sigterm_nccl() {  # NAME ARGS...: SIGTERM 3 s after the first result line (at most 180 s in)
  local name=$1; shift
  setsid "$bin" nccl "${policy[@]}" "$@" --json "$out/$name.json" --jsonl "$out/$name.jsonl" >"$out/$name.txt" 2>&1 &
  local pid=$!
  for _ in $(seq 1800); do
    grep -q '"kind":"nccl_result"' "$out/$name.jsonl" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  sleep 3
  kill -TERM "$pid"
  local t0=$EPOCHREALTIME
  wait "$pid"
  local rc=$?
  echo "== $name: exit $rc, $(seconds_since "$t0") s after SIGTERM" | tee -a "$out/$name.txt"
  local lines
  lines=$(grep -c '"kind":"nccl_result"' "$out/$name.jsonl" 2>/dev/null)
  if [[ $rc == 143 ]] && grep -q '"interrupted": "SIGTERM after' "$out/$name.json" && (( ${lines:-0} > 0 )); then
    ok "$name: exit 143, document interrupted, $lines nccl_result lines"
  else
    fail "$name: exit $rc, nccl_result lines ${lines:-0} (see $name.txt)"
  fi
  if pgrep -f "nccl-rank --options" >/dev/null; then fail "$name: rank processes left running"; fi
}
# Large messages, many iterations: one rank on one GPU ran 1 KiB..1 GiB at 50 iterations in 1.9 s,
# before the signal came (results/h200-vm-2026-12-03-fleet/shared-gpu/).
sigterm_nccl nccl-sigterm --devices 0 --min-bytes 64M --max-bytes 1G --iters 1000
sigterm_nccl nccl-ranks2-sigterm --ranks 2 --rank-processes --collectives all_reduce,all_gather \
  --min-bytes 1K --max-bytes 256M --timeout 60

echo "shared-gpu-acceptance: results in $out (exit $status)"
exit "$status"
