#!/usr/bin/env bash
# CI job for a runner that has NVIDIA GPUs (the GPU-less CI runs .ci/run instead).
#
#   pipelines/gpu-host.sh [RESULTS_DIR]
#   env: P2P_GATE_ARGS   gate arguments for the acceptance chain, e.g.
#                        "--expect golden/lxc-8gpu.json --policy results/policies/default.json"
#        P2P_BASELINE    optional: an earlier RESULTS_DIR of this host class; its bench.json and
#                        nccl.json are the baseline `p2pcheck compare` judges this run against
#
# 1. The whole suite, where the GPU tests must really run: on a GPU host a GPU test that
#    skips because no GPU is usable means the runner lost its GPU, and that fails the job.
# 2. The acceptance chain (doctor → topo → gate → bench → nccl, with HTML reports) with its
#    results kept in RESULTS_DIR for the pipeline to archive.
# 3. With P2P_BASELINE: every figure against the baseline; a regression or a lost figure fails
#    the job (compare-bench.txt, compare-nccl.txt in RESULTS_DIR say which, and
#    compare-*.junit.xml carry each verdict for the pipeline's test report).
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-p2pcheck-results/ci-$(date -u +%Y%m%dT%H%M%SZ)}

scripts/install-deps.sh
# Every test in this one build (a build/ that scripts/test.sh configured leaves the CPU tests to
# its sanitized build: the empty value takes them back).
scripts/build.sh -DP2P_TESTS_RUN_ELSEWHERE=
ctest --test-dir build -L unit --output-on-failure -j "$(nproc)"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
ctest --test-dir build -L gpu --output-on-failure -V 2>&1 | tee "$log"
if grep -q -e "no usable GPU" -e "no usable CUDA device" -e "NCCL is not usable" -e "no NVIDIA GPU on this machine" -e "no NVIDIA driver on this host" "$log"; then
  echo "pipelines/gpu-host.sh: GPU tests were skipped for want of a GPU on a GPU runner" >&2
  exit 1
fi
# Multi-GPU paths run on one GPU through logical GPUs and rank processes: no GPU test may skip
# for want of a second one.
if grep -q -E "needs [0-9]+ GPUs|second GPU" "$log"; then
  echo "pipelines/gpu-host.sh: a GPU test was skipped for want of a second GPU; multi-GPU paths must run through logical GPUs or rank processes" >&2
  exit 1
fi

status=0
# shellcheck disable=SC2086  # P2P_GATE_ARGS is a list of words on purpose
scripts/p2pcheck-all.sh "$results" -- ${P2P_GATE_ARGS:-} || status=$?

if [[ -n ${P2P_BASELINE:-} ]]; then
  for doc in bench nccl; do
    [[ -s $P2P_BASELINE/$doc.json && -s $results/$doc.json ]] || continue
    rc=0
    build/p2pcheck compare "$P2P_BASELINE/$doc.json" "$results/$doc.json" --junit "$results/compare-$doc.junit.xml" \
      >"$results/compare-$doc.txt" || rc=$?
    cat "$results/compare-$doc.txt"
    ((status == 0 && rc != 0)) && status=$rc
  done
fi
exit "$status"
