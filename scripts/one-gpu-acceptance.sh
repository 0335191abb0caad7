#!/usr/bin/env bash
# Every multi-GPU path of p2pcheck on a host with one GPU (or a few): the doctor's peer-copy
# check over logical GPUs, an 8-logical-GPU bench (every case over all 56 ordered pairs), NCCL with 8 rank processes
# sharing the GPU(s), and an 8-rank run with one rank killed mid-sweep, each with its wall
# time, keeping JSON, text and HTML in OUT_DIR. SKIP_TESTS=1, SKIP_BENCH=1, SKIP_NCCL=1 leave
# a part out; P2P_NCCL_MAX_BYTES (16M) bounds the 8-rank sweep.
# For one-GPU CI runners and development machines: the figures measure the tool, not the links.
#
#   scripts/one-gpu-acceptance.sh [OUT_DIR] [BUILD_DIR]
#
# Exit status: the first failing step's exit code (README "Exit codes"); 0 when all pass.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-p2pcheck-results/one-gpu-$(date -u +%Y%m%dT%H%M%SZ)}
build=${2:-build}
bin=$build/p2pcheck
mkdir -p "$out"
status=0

. scripts/lib/steps.sh  # step, seconds_since

policy=(--policy results/policies/default.json)
# The doctor's peer-copy check: against the GPU itself, over logical GPUs, and with its test
# hook spoiling every destination (the check must fail: exit 1).
step doctor "$bin" doctor --save-facts "$out/doctor-facts.json"
step doctor-logical8 "$bin" doctor --logical-gpus 8 --format json
expect=1 P2P_DOCTOR_PEER_COPY_FAULT=corrupt step doctor-peer-copy-fault "$bin" doctor --logical-gpus 2
if [[ ${SKIP_BENCH:-0} != 1 ]]; then
  step bench-logical8 "$bin" bench "${policy[@]}" --logical-gpus 8 --sizes 64M --json "$out/bench-logical8.json"
  "$bin" report "$out/bench-logical8.json" --html "$out/bench-logical8.html" >/dev/null
fi
if [[ ${SKIP_BENCH:-0} != 1 ]]; then
  # SIGTERM 5 s into a bench run: the figures measured so far are written, marked interrupted,
  # and the exit code is 143 (128 + SIGTERM).
  log=$out/bench-sigterm.txt
  "$bin" bench "${policy[@]}" --logical-gpus 8 --sizes 64M --json "$out/bench-sigterm.json" >"$log" 2>&1 &
  pid=$!
  sleep 5
  kill -TERM "$pid"
  t0=$EPOCHREALTIME
  wait "$pid"
  rc=$?
  echo "== bench-sigterm: exit $rc, $(seconds_since "$t0") s after SIGTERM" | tee -a "$log"
  if [[ $rc != 143 ]] || ! grep -q '"interrupted": "SIGTERM after' "$out/bench-sigterm.json"; then
    echo "== bench-sigterm: expected exit 143 and a document marked interrupted" | tee -a "$log"
    (( status == 0 )) && status=1
  fi
fi
if [[ ${SKIP_NCCL:-0} != 1 ]]; then
  step nccl-ranks8 "$bin" nccl "${policy[@]}" --ranks 8 --min-bytes 1M --max-bytes ${P2P_NCCL_MAX_BYTES:-16M} --step-factor 4 --timeout 120 \
    --nccl-log "$out/nccl-ranks8.log" --json "$out/nccl-ranks8.json"
  "$bin" report "$out/nccl-ranks8.json" --html "$out/nccl-ranks8.html" >/dev/null
  # Rank 3 of 8 kills itself (SIGKILL) before its 6th case: the run must end within the timeout
  # plus 10 s, name the rank and keep the five cases measured before; exit 4 is expected.
  expect=4 P2P_TEST_KILL_RANK=3:5 step nccl-killed-rank "$bin" nccl "${policy[@]}" --ranks 8 \
    --collectives all_reduce,all_gather --min-bytes 1K --max-bytes 64K --timeout 10 --json "$out/nccl-killed-rank.json"
  # Rank 5 of 8 stops answering in its 6th case: every rank process misses the 10 s deadline
  # there and aborts its communicator; the run is a hang (exit 5) that ends, with what came before.
  expect=5 P2P_TEST_STALL_RANK=5:5 step nccl-stalled-rank "$bin" nccl "${policy[@]}" --ranks 8 \
    --collectives all_reduce,all_gather --min-bytes 1K --max-bytes 64K --timeout 10 --json "$out/nccl-stalled-rank.json"
fi
# Last, so that the runs above are kept even when the tests take the time that is left.
[[ ${SKIP_TESTS:-0} == 1 ]] || step gpu-tests ctest --test-dir "$build" -L gpu --output-on-failure
echo "one-gpu-acceptance: results in $out (exit $status)"
exit "$status"
