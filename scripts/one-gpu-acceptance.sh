#!/usr/bin/env bash
# Every multi-GPU path of p2pcheck on a host with one GPU (or a few): the GPU tests, then an
# 8-logical-GPU bench (every case over all 56 ordered pairs) and NCCL with 8 rank processes
# sharing the GPU(s), each with its wall time, keeping JSON, text and HTML in OUT_DIR.
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

step() {  # step NAME CMD...: run with its wall time, output into OUT/NAME.txt
  local name=$1; shift
  echo "== $name: $*" | tee "$out/$name.txt"
  local t0=$EPOCHREALTIME rc
  "$@" >>"$out/$name.txt" 2>&1
  rc=$?
  awk -v n="$name" -v rc="$rc" -v a="$t0" -v b="$EPOCHREALTIME" \
    'BEGIN { printf "== %s: exit %d, wall %.1f s\n", n, rc, b - a }' | tee -a "$out/$name.txt"
  (( status == 0 && rc != 0 )) && status=$rc
  return 0
}

step gpu-tests ctest --test-dir "$build" -L gpu --output-on-failure
step bench-logical8 "$bin" bench --logical-gpus 8 --sizes 64M --skip-gate --json "$out/bench-logical8.json"
[[ -s $out/bench-logical8.json ]] && "$bin" report "$out/bench-logical8.json" --out "$out/bench-logical8.html"
echo "one-gpu-acceptance: results in $out (exit $status)"
exit "$status"
