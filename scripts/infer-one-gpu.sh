#!/usr/bin/env bash
# `p2pcheck infer` on a host with one GPU: the plan (--list), the whole inference profile of a
# Llama-3-70B-shaped model for TP=2, 4 and 8 with 8 rank processes sharing the GPU (each its own
# NCCL host), CUDA-graph-captured all-reduces, the CUDA IPC check between the processes and P2P
# off beside it; a budget nobody can meet (must exit 1); then infer's GPU tests. Ranks that share
# one GPU take turns on it: an 8-rank all-reduce there takes about 0.13 s (see
# results/h200-vm-2026-12-03-one-gpu/nccl-ranks8.txt), so the defaults are small and the run
# stays under about three minutes: P2P_INFER_CALLS (20) timed calls per message,
# P2P_INFER_BATCH (1,256) and P2P_INFER_PREFILL (512). A multi-GPU host uses infer's own
# defaults (2000 calls per message) instead.
# The figures measure the tool (and NCCL's network transport on one GPU), not the links.
#
#   scripts/infer-one-gpu.sh [OUT_DIR] [BUILD_DIR]
#
# Exit status: the first failing step's exit code (README "Exit codes"); 0 when all pass.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-p2pcheck-results/infer-one-gpu-$(date -u +%Y%m%dT%H%M%SZ)}
build=${2:-build}
bin=$build/p2pcheck
mkdir -p "$out"
status=0

. scripts/lib/steps.sh  # step, seconds_since

model=(--model infer/tests/fixtures/llama-3-70b-config.json)
sizes=(--batch "${P2P_INFER_BATCH:-1,256}" --prefill "${P2P_INFER_PREFILL:-512}")
timing=(--calls "${P2P_INFER_CALLS:-20}" --calls-per-graph 10 --warmup 1 --timeout 60)

step infer-list "$bin" infer "${model[@]}" "${sizes[@]}" --tp 2,4,8 --list --logical-gpus 8
step infer-logical8 "$bin" infer "${model[@]}" "${sizes[@]}" "${timing[@]}" --tp 2,4,8 --devices 0 --logical-gpus 8 \
  --json "$out/infer-logical8.json" --html "$out/infer-logical8.html"
# The budget is judged on the recommended group of every TP size: 0.001 us per token cannot be met.
expect=1 step infer-budget-missed "$bin" infer "${model[@]}" --batch 1 --no-prefill --calls 10 --calls-per-graph 10 \
  --warmup 1 --tp 2 --devices 0 --logical-gpus 2 --no-p2p-off --budget-us-per-token 0.001 --json "$out/infer-budget-missed.json"
[[ ${SKIP_TESTS:-0} == 1 ]] || step infer-gpu-tests ctest --test-dir "$build" -L gpu -R '^InferGpu' --output-on-failure
echo "infer-one-gpu: results in $out (exit $status)"
exit "$status"
