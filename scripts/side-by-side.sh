#!/usr/bin/env bash
# Benchmark driver (not a test): p2pcheck against nvbandwidth and nccl-tests on one GPU, in
# interleaved rounds, so a slow minute of the platform lands on both tools rather than on one.
# Each round runs the figures both tools share (512 MiB host<->GPU, bidirectional, SM and
# copy engine, device-local, host latency) and the six NCCL collectives from 64 MiB to 1 GiB;
# which tool goes first alternates between rounds. Then it times each tool's default run.
# Everything each tool printed stays under OUT; scripts/side_by_side_summary.py turns it into
# the ratio table (every figure, every round, the worst round, and each tool's spread).
#
# usage: scripts/side-by-side.sh OUT P2PCHECK NVBANDWIDTH NCCL_TESTS_BUILD_DIR
# env:   ROUNDS=10 NCCL_ROUNDS=ROUNDS (the collectives in the first NCCL_ROUNDS rounds only)
#        GPU=0 SIZE=512M SAMPLES=7 NCCL_MIN=64M NCCL_MAX=1G ITERS=100 WARMUP=10
#        TIMINGS=1 (0 skips the default-run timings, p2p times p2pcheck's default runs only)
set -euo pipefail
out=${1:?usage: $0 OUT P2PCHECK NVBANDWIDTH NCCL_TESTS_BUILD_DIR}
p2pcheck=${2:?P2PCHECK}
nvbandwidth=${3:?NVBANDWIDTH}
nccl_tests=${4:?NCCL_TESTS_BUILD_DIR}
rounds=${ROUNDS:-10}
nccl_rounds=${NCCL_ROUNDS:-$rounds}
gpu=${GPU:-0}
size=${SIZE:-512M}
samples=${SAMPLES:-7}
nccl_min=${NCCL_MIN:-64M}
nccl_max=${NCCL_MAX:-1G}
iters=${ITERS:-100}
warmup=${WARMUP:-10}
ops="all_reduce all_gather reduce_scatter alltoall broadcast sendrecv"
nvb_tests="host_to_device_memcpy_ce device_to_host_memcpy_ce host_to_device_bidirectional_memcpy_ce
  device_to_host_bidirectional_memcpy_ce host_to_device_memcpy_sm device_to_host_memcpy_sm
  host_to_device_bidirectional_memcpy_sm device_to_host_bidirectional_memcpy_sm device_local_copy
  host_device_latency_sm"
p2p_cases='h2d_ce|d2h_ce|h2d_d2h_ce|h2d_sm|d2h_sm|h2d_d2h_sm|device_local_ce|latency_host'
mkdir -p "$out"
# One GPU of the host: p2pcheck is told to accept the mask (--allow-env), which its gate would
# otherwise refuse as hiding GPUs the topology has.
export CUDA_VISIBLE_DEVICES=$gpu

# Wall seconds of a command, appended to OUT/timings.txt as "label seconds exit".
timed() {
  local label=$1
  shift
  local t0 rc=0
  t0=$(date +%s.%N)
  "$@" || rc=$?
  awk -v l="$label" -v a="$t0" -v b="$(date +%s.%N)" -v rc="$rc" 'BEGIN { printf "%s %.2f %d\n", l, b - a, rc }' \
    >>"$out/timings.txt"
}

nvb_round() {
  # shellcheck disable=SC2086 # one argument per test name
  "$nvbandwidth" -t $nvb_tests >"$1/nvbandwidth.txt" 2>&1
}
p2p_round() {
  "$p2pcheck" bench --allow-env CUDA_VISIBLE_DEVICES --gpus 0 --sizes "$size" --samples "$samples" --json "$1/bench.json" \
    "--benchmark_filter=^($p2p_cases)/" >"$1/bench.txt" 2>&1
}
nt_round() {
  for op in $ops; do
    "$nccl_tests/${op}_perf" -b "$nccl_min" -e "$nccl_max" -f 2 -n "$iters" -w "$warmup" -g 1 >"$1/nt-$op.txt" 2>&1
  done
}
pc_round() {
  for op in $ops; do
    "$p2pcheck" nccl --allow-env CUDA_VISIBLE_DEVICES --collectives "$op" --devices 0 -b "$nccl_min" -e "$nccl_max" -f 2 --iters "$iters" \
      --warmup "$warmup" >"$1/pc-$op.txt" 2>&1
  done
}

: >"$out/timings.txt"
for ((r = 1; r <= rounds; r++)); do
  dir="$out/round-$r"
  mkdir -p "$dir"
  echo "side-by-side: round $r of $rounds" >&2
  if ((r % 2)); then
    timed "round$r.nvbandwidth" nvb_round "$dir"
    timed "round$r.p2pcheck-bench" p2p_round "$dir"
  else
    timed "round$r.p2pcheck-bench" p2p_round "$dir"
    timed "round$r.nvbandwidth" nvb_round "$dir"
  fi
  ((r <= nccl_rounds)) || continue
  if ((r % 2)); then
    timed "round$r.nccl-tests" nt_round "$dir"
    timed "round$r.p2pcheck-nccl" pc_round "$dir"
  else
    timed "round$r.p2pcheck-nccl" pc_round "$dir"
    timed "round$r.nccl-tests" nt_round "$dir"
  fi
done

if [[ ${TIMINGS:-1} != 0 ]]; then
  echo "side-by-side: default runs, timed" >&2
  if [[ ${TIMINGS:-1} != p2p ]]; then
    timed default.nvbandwidth "$nvbandwidth" >"$out/default-nvbandwidth.txt" 2>&1
    timed default.nccl-tests bash -c "for op in $ops; do '$nccl_tests'/\${op}_perf -b 8 -e 128M -f 2 -g 1; done" \
      >"$out/default-nccl-tests.txt" 2>&1
  fi
  timed default.p2pcheck-bench "$p2pcheck" bench --allow-env CUDA_VISIBLE_DEVICES --json "$out/default-bench.json" >"$out/default-bench.txt" 2>&1
  timed default.p2pcheck-nccl "$p2pcheck" nccl --allow-env CUDA_VISIBLE_DEVICES --json "$out/default-nccl.json" >"$out/default-nccl.txt" 2>&1
  timed logical8.p2pcheck-bench "$p2pcheck" bench --allow-env CUDA_VISIBLE_DEVICES --logical-gpus 8 --json "$out/logical8-bench.json" \
    >"$out/logical8-bench.txt" 2>&1
  timed logical8.p2pcheck-nccl "$p2pcheck" nccl --allow-env CUDA_VISIBLE_DEVICES --ranks 8 --json "$out/logical8-nccl.json" \
    >"$out/logical8-nccl.txt" 2>&1
fi
if command -v python3 >/dev/null; then
  python3 "$(dirname "$0")/side_by_side_summary.py" "$out" | tee "$out/summary.txt"
fi
