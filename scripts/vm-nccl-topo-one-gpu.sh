#!/usr/bin/env bash
# The guest's NCCL topology file (vm plan --nccl-topo) read by NCCL itself, on a host with one
# GPU that plays the guest: a public host capture (six A100 behind PCIe switches) is the host,
# the VM gets its GPU0 and GPU1, this GPU is GPU0's guest bus id and GPU1's is one no process has
# (NCCL drops it). Then: this machine's own saved topology as --guest; `nccl` with NCCL_TOPO_FILE
# (its report must say "loaded": p2pcheck reads NCCL's own "Loading topology file" line); NCCL's
# own dump of the topology it built (NCCL_TOPO_DUMP_FILE, must hold the file's ffff bridges); a
# file that does not exist (the report must say "NOT read"); `doctor` with the file set
# (nccl.topo_file); `vm verify` (one GPU: nothing to prove, exit 1). `nccl` on one GPU fails its
# verdict by design (one rank: no NCCL figure is judged), so its steps accept exit 0 or 1.
#
#   scripts/vm-nccl-topo-one-gpu.sh [OUT_DIR] [BUILD_DIR]
#
# Exit status: the first failing step's exit code; 0 when all pass.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out=${1:-p2pcheck-results/vm-nccl-topo-$(date -u +%Y%m%dT%H%M%SZ)}
build=${2:-build}
bin=$build/p2pcheck
mkdir -p "$out"
out=$(cd "$out" && pwd)
status=0

. scripts/lib/steps.sh  # step, seconds_since

bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1)
host=topology/tests/fixtures/pcie-switch.xml
topo_file=$out/guest-nccl-topo.xml

step topo-save "$bin" topo --json "$out/guest.json"
expect='0|1' step plan "$bin" vm plan --topology "$host" --gpus 0,1 --nccl-topo "$topo_file" \
  --guest-bus-ids "$bus,0000:7f:00.0"
expect='0|1' step plan-from-guest "$bin" vm plan --topology "$host" --gpus 0 \
  --nccl-topo "$out/guest-nccl-topo-1.xml" --guest "$out/guest.json"
NCCL_TOPO_FILE=$topo_file expect='0|1' step nccl "$bin" nccl --expect-gpus 1 --collectives all_reduce -e 1M \
  --json "$out/nccl.json"
grep -q "NCCL topology file $topo_file: loaded" "$out/nccl.txt" ||
  { echo "nccl did not report the file loaded"; [[ $status == 0 ]] && status=1; }
NCCL_TOPO_FILE=$topo_file NCCL_TOPO_DUMP_FILE=$out/nccl-topo-dump.xml expect='0|1' \
  step nccl-dump "$bin" nccl --expect-gpus 1 --collectives all_reduce -e 1K
grep -q "ffff:" "$out/nccl-topo-dump.xml" ||
  { echo "NCCL's dump holds none of the file's bridges"; [[ $status == 0 ]] && status=1; }
NCCL_TOPO_FILE=/nonexistent/topo.xml expect='0|1' step nccl-missing-file "$bin" nccl --expect-gpus 1 \
  --collectives all_reduce -e 1K
grep -q "NOT read" "$out/nccl-missing-file.txt" ||
  { echo "a missing file was not reported"; [[ $status == 0 ]] && status=1; }
NCCL_TOPO_FILE=$topo_file expect='0|1' step doctor "$bin" doctor
grep "nccl.topo_file" "$out/doctor.txt"
expect=1 step vm-verify "$bin" vm verify
exit "$status"
