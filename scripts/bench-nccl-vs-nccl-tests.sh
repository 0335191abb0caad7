#!/usr/bin/env bash
# Benchmark driver (not a test): `p2pcheck nccl` against nccl-tests on the same GPUs, the same
# NCCL library, sizes and iteration counts. Prints out-of-place time, algbw and busbw side by
# side for messages of MIN_COMPARE bytes and more, with p2pcheck/nccl-tests as a ratio (of
# busbw; of algbw where one rank moves nothing across a bus and busbw is 0 for both).
#
# usage: scripts/bench-nccl-vs-nccl-tests.sh NCCL_TESTS_BUILD_DIR [P2PCHECK]
# env:   NGPUS (default: every visible GPU), MIN_BYTES=8 MAX_BYTES=512M STEP=4 ITERS=20 WARMUP=5
#        OPS="all_reduce all_gather reduce_scatter sendrecv" MIN_COMPARE=67108864 (64 MiB)
set -euo pipefail
tests_dir=${1:?usage: $0 NCCL_TESTS_BUILD_DIR [P2PCHECK]}
p2pcheck=${2:-build/p2pcheck}
ngpus=${NGPUS:-$(nvidia-smi -L | wc -l)}
min_bytes=${MIN_BYTES:-8}
max_bytes=${MAX_BYTES:-512M}
step=${STEP:-4}
iters=${ITERS:-20}
warmup=${WARMUP:-5}
ops=${OPS:-all_reduce all_gather reduce_scatter sendrecv}
min_compare=${MIN_COMPARE:-67108864}
devices=$(seq -s, 0 $((ngpus - 1)))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Data rows of both tools: size count type redop root time algbw busbw #wrong (out-of-place),
# then in-place columns or p2pcheck's "n/a" for operations without an in-place form.
rows() { awk '$1 ~ /^[0-9]+$/ && NF >= 9 { print $1, $6, $7, $8 }' "$1"; }

echo "# nccl-tests: ${tests_dir}/<op>_perf -b ${min_bytes} -e ${max_bytes} -f ${step} -n ${iters} -w ${warmup} -g ${ngpus}"
echo "# p2pcheck:   ${p2pcheck} nccl --collectives <op> --devices ${devices} -b ${min_bytes} -e ${max_bytes} -f ${step} --iters ${iters} --warmup ${warmup}"
printf '%-15s %12s | %10s %9s %9s | %10s %9s %9s | %7s\n' op size_B nt_time_us nt_algbw nt_busbw \
  p2p_time_us p2p_algbw p2p_busbw ratio
for op in $ops; do
  "${tests_dir}/${op}_perf" -b "$min_bytes" -e "$max_bytes" -f "$step" -n "$iters" -w "$warmup" -g "$ngpus" \
    >"$tmp/nt.$op"
  "$p2pcheck" nccl --collectives "$op" --devices "$devices" -b "$min_bytes" -e "$max_bytes" -f "$step" \
    --iters "$iters" --warmup "$warmup" >"$tmp/pc.$op" 2>/dev/null || true
  rows "$tmp/nt.$op" | sort -k1,1 >"$tmp/nt.rows"
  rows "$tmp/pc.$op" | sort -k1,1 >"$tmp/pc.rows"
  join "$tmp/nt.rows" "$tmp/pc.rows" | sort -n -k1,1 | awk -v op="$op" -v min="$min_compare" '
    $1 >= min {
      ratio = ($4 > 0) ? $7 / $4 : (($3 > 0) ? $6 / $3 : 0)
      printf "%-15s %12d | %10.1f %9.1f %9.1f | %10.1f %9.1f %9.1f | %7.4f\n", op, $1, $2, $3, $4, $5, $6, $7, ratio
    }'
done
