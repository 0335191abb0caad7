#!/bin/bash
# Fleet acceptance with plain mpirun over ssh: one rank per host of HOSTFILE (Open MPI format,
# see hostfile.example), every output under OUT. p2pcheck must be installed at the same path on
# every host (or set P2PCHECK). Extra arguments go to `p2pcheck cluster` (--expect FILE, bench
# options such as --sizes 1G).
#
#   scripts/cluster/mpirun-cluster.sh HOSTFILE OUT [p2pcheck cluster options...]
#
# Exit code: p2pcheck cluster's (0 every host passes, 1 a host fails or has no result, 2 bad
# input). OUT/cluster.json, OUT/cluster.xml (JUnit), OUT/lines/<host>-rank<N>.jsonl.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 HOSTFILE OUT [p2pcheck cluster options...]" >&2
  exit 2
fi
hostfile=$1
out=$2
shift 2
if [[ ! -r "$hostfile" ]]; then
  echo "$0: $hostfile: cannot read the hostfile" >&2
  exit 2
fi
# One rank per host: the hosts are the non-comment lines of the hostfile.
hosts=$(grep -cvE '^[[:space:]]*(#|$)' "$hostfile" || true)
if [[ "$hosts" -lt 1 ]]; then
  echo "$0: $hostfile: names no host" >&2
  exit 2
fi
mkdir -p "$out"
exec mpirun --hostfile "$hostfile" -np "$hosts" --map-by ppr:1:node \
  "${P2PCHECK:-p2pcheck}" cluster --lines-dir "$out/lines" --json "$out/cluster.json" --junit "$out/cluster.xml" "$@"
