#!/usr/bin/env bash
# Host<->device, device-local, SM copy and latency figures of one GPU, each printed beside its
# physical ceiling and beside what NVIDIA's nvbandwidth v0.8 measured on our reference H200
# (PCIe Gen5 x16 pass-through VM, driver 580.159.04, CUDA 13.0, 512 MiB buffers, median of 3;
# four runs agreed within 0.5%). A benchmark, not a test: it asserts nothing, but marks each
# figure "below" when p2pcheck is more than 1% worse than the reference.
#
#   scripts/bench-ceilings.sh [GPU=0] [extra p2pcheck bench options...]
#
# Sizes default to 512 MiB, nvbandwidth's default buffer, so the figures compare like for like.
set -euo pipefail
cd "$(dirname "$0")/.."
p2pcheck=${P2PCHECK:-build/p2pcheck}
gpu=${1:-0}
shift || true
json=$(mktemp --suffix=.json)
trap 'rm -f "$json"' EXIT

cases='h2d_ce|d2h_ce|h2d_d2h_ce|h2d_sm|d2h_sm|h2d_d2h_sm|device_local_ce|device_local_sm|latency_host'
"$p2pcheck" bench --gpus "$gpu" --sizes 512M --samples 7 --json "$json" \
  "--benchmark_filter=^($cases)/" "$@" >&2 || rc=$?
if [[ ! -s $json ]]; then
  echo "bench-ceilings: p2pcheck bench wrote no results (exit ${rc:-?})" >&2
  exit "${rc:-1}"
fi

# nvbandwidth v0.8 on the reference H200 (GB/s; ns for latency). Key: case/src->dst.
reference() {
  case "$1" in
    h2d_ce/host-\>gpu*) echo "55.5 host_to_device_memcpy_ce" ;;
    d2h_ce/gpu*-\>host) echo "55.3 device_to_host_memcpy_ce" ;;
    h2d_d2h_ce/host-\>gpu*) echo "49.9 host_to_device_bidirectional_memcpy_ce" ;;
    h2d_d2h_ce/gpu*-\>host) echo "50.8 device_to_host_bidirectional_memcpy_ce" ;;
    h2d_sm/host-\>gpu*) echo "51.4 host_to_device_memcpy_sm" ;;
    d2h_sm/gpu*-\>host) echo "52.6 device_to_host_memcpy_sm" ;;
    h2d_d2h_sm/host-\>gpu* | h2d_d2h_sm/gpu*-\>host) echo "42.4 host/device_bidirectional_sm" ;;
    device_local_ce/*) echo "2081 device_local_copy" ;;
    latency_host/*) echo "1190 host_device_latency_sm" ;;
    *) echo "- -" ;;
  esac
}

# The results document is nlohmann's pretty print: one "key": value per line, keys sorted,
# records flat. Collect each bandwidth/latency record's fields and print them '|'-separated
# (not tabs: `read` would merge the empty fields between consecutive tabs).
records() {
  awk '
    /^ *\{ *$/ { delete f; next }
    /^ *"[a-z_0-9]+": / {
      line = $0
      sub(/^ *"/, "", line)
      key = line; sub(/".*/, "", key)
      val = line; sub(/^[a-z_0-9]+": /, "", val); sub(/,$/, "", val); gsub(/"/, "", val)
      f[key] = val
      next
    }
    /^ *\}/ {
      if (f["schema"] == "p2pcheck.bench.bandwidth" && f["part"] != "sum") {
        print f["case"] "/" f["src"] "->" f["dst"], f["median_gbps"], f["spread_pct"], f["ceiling_gbps"], f["ceiling_link"], f["status"]
      } else if (f["schema"] == "p2pcheck.bench.latency") {
        print f["case"] "/" f["src"] "->" f["dst"], f["median_ns"], f["spread_pct"], "null", "", f["status"]
      }
      delete f
    }' OFS='|' "$json"
}

printf '\n%-28s %10s %8s %12s %22s %10s %8s  %s\n' figure p2pcheck spread "ceiling" "(link)" nvbandwidth ratio verdict
records | while IFS='|' read -r key median spread ceiling link status; do
  read -r ref ref_name <<<"$(reference "$key")"
  unit="GB/s"
  [[ $key == latency_* ]] && unit="ns"
  ceil_text="-"
  if [[ $ceiling != null && -n $ceiling ]]; then
    ceil_text=$(awk -v m="$median" -v c="$ceiling" 'BEGIN { printf "%.1f (%.0f%%)", c, m / c * 100 }')
  elif [[ $key == device_local_* ]]; then
    ceil_text="memory-bound"
    link="HBM3e 4.8TB/s: 2400 copied"
  fi
  ratio="-"
  verdict="$status"
  if [[ $ref != - && $median != null ]]; then
    # Higher is better for bandwidth, lower for latency; "ok" within 1% of the reference.
    ratio=$(awk -v m="$median" -v r="$ref" -v u="$unit" 'BEGIN { printf "%.3f", (u == "ns") ? r / m : m / r }')
    if [[ $status == ok ]]; then
      verdict=$(awk -v q="$ratio" 'BEGIN { print (q >= 0.99) ? "ok" : "below" }')
    fi
  fi
  printf '%-28s %10s %7s%% %12s %22s %10s %8s  %s\n' "$key" \
    "$(awk -v m="$median" -v u="$unit" 'BEGIN { printf (u == "ns") ? "%.1f ns" : "%.2f", m }')" \
    "$(awk -v s="$spread" 'BEGIN { printf "%.2f", s }')" "$ceil_text" "${link:--}" "$ref" "$ratio" "$verdict"
done
echo
echo "ceilings: PCIe gen5 x16 = 32 GT/s x 16 x 128/130 / 8 = 63.0 GB/s per direction before packet overhead;"
echo "          a device-local copy reads and writes each byte, so it moves at most half the HBM bandwidth."
