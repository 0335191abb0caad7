#!/usr/bin/env bash
# `p2pcheck nccl --mpi` on a host with one GPU: NP MPI processes (4) share it, each told by
# NCCL_HOSTID that it is a host of its own, so NCCL connects them as it would separate hosts
# (NET/Socket without InfiniBand) and the host-pair rounds run between four "hosts". Then the
# same with --rank-per-gpu (every task takes --gpus' entry of its local rank), a rank that
# stalls (the run must end as a hang with the figures before it kept) and a rank that kills
# itself (the launcher ends the job; every process's --jsonl lines must be on disk). Every
# step has a wall-clock limit (STEP_TIMEOUT, 900 s) and keeps its output under OUT_DIR.
#
#   MPIRUN=/opt/deps/usr/bin/mpirun OPAL_PREFIX=/opt/deps/usr LD_LIBRARY_PATH=/opt/deps/usr/lib/x86_64-linux-gnu \
#     scripts/mpi-nccl-one-gpu.sh [OUT_DIR] [BUILD_DIR]
#
# MPIRUN (mpirun), NP (4), MPIRUN_ARGS ("--mca pml ob1 --mca btl self,tcp": TCP between the
# processes, nothing that needs a fabric), P2P_NCCL_MAX_BYTES (4M), P2P_NCCL_ITERS (20) and
# P2P_NCCL_WARMUP (5) per size. OPAL_PREFIX, PATH,
# LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES are passed to every process with -x where set.
# The build must have found MPI at configure time (cmake prints "MPI found"; for Open MPI
# unpacked outside the system, configure with -DMPI_CXX_COMPILER=/opt/deps/usr/bin/mpicxx).
# Exit status: the first failing step's exit code (README "Exit codes"); 0 when all pass.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-p2pcheck-results/mpi-nccl-one-gpu-$(date -u +%Y%m%dT%H%M%SZ)}
build=${2:-build}
bin=$(realpath "$build/p2pcheck")
mpirun=${MPIRUN:-mpirun}
np=${NP:-4}
max=${P2P_NCCL_MAX_BYTES:-4M}
step_timeout=${STEP_TIMEOUT:-900}  # read by step (scripts/lib/steps.sh)
read -r -a extra <<<"${MPIRUN_ARGS:---mca pml ob1 --mca btl self,tcp}"
mkdir -p "$out"
out=$(realpath "$out")
status=0

# As root Open MPI's mpirun refuses to start without these; harmless otherwise.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
pass=()
for v in OPAL_PREFIX PATH LD_LIBRARY_PATH CUDA_VISIBLE_DEVICES OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM; do
  [[ -n ${!v:-} ]] && pass+=(-x "$v")
done

. scripts/lib/steps.sh  # step, seconds_since

# Sets MPI_CMD to NP processes, each its own NCCL host h<rank>, running `p2pcheck nccl --mpi
# ARGS...`. The test hooks P2P_TEST_* go to every process where set.
mpi_cmd() {
  local args hooks=()
  printf -v args ' %q' "$@"
  for v in P2P_TEST_KILL_RANK P2P_TEST_STALL_RANK; do
    [[ -n ${!v:-} ]] && hooks+=(-x "$v=${!v}")
  done
  MPI_CMD=("$mpirun" --oversubscribe -np "$np" "${extra[@]}" "${pass[@]}" "${hooks[@]}"
    bash -c "NCCL_HOSTID=h\$OMPI_COMM_WORLD_RANK exec $(printf %q "$bin") nccl --mpi$args")
}

check() {  # check NAME PYTHON-EXPRESSION-over-doc: a verdict line on the document NAME.json
  local name=$1 expr=$2
  python3 - "$out/$name.json" "$expr" <<'PY' | tee -a "$out/$1.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
run = doc["nccl"]["run"]
ok = eval(sys.argv[2], {"run": run, "doc": doc})
print(("== check ok: " if ok else "== CHECK FAILED: ") + sys.argv[2])
sys.exit(0 if ok else 1)
PY
  local rc=${PIPESTATUS[0]}
  (( status == 0 && rc != 0 )) && status=1
  return 0
}

step mpirun-version "$mpirun" --version
sweep=(--min-bytes 1K --max-bytes "$max" --step-factor 4 --iters "${P2P_NCCL_ITERS:-20}" --warmup "${P2P_NCCL_WARMUP:-5}"
  --timeout 60)

mpi_cmd "${sweep[@]}" --nccl-log "$out/nccl-mpi.log" --json "$out/nccl-mpi.json" --jsonl "$out/nccl-mpi.jsonl"
step nccl-mpi "${MPI_CMD[@]}"
if [[ -f $out/nccl-mpi.json ]]; then
  check nccl-mpi "len(run['cluster']['hosts']) == $np and all(r['status'] == 'ok' and r['wrong_elements'] == 0 for r in run['results'])"
  check nccl-mpi "all(any(t.startswith('NET/') for t in c['transports']) for i, row in enumerate(run['cluster']['host_transport']) for j, c in enumerate(row) if i != j)"
  check nccl-mpi "len(run['cluster']['host_pairs']) == $np * ($np - 1) and all(p['status'] == 'ok' for p in run['cluster']['host_pairs'])"
  "$bin" report "$out/nccl-mpi.json" --html "$out/nccl-mpi.html" >/dev/null
fi

# One task per GPU as srun or mpirun --map-by would start them: every local rank takes --gpus'
# entry, here all the same GPU.
gpus=$(printf '0,%.0s' $(seq "$np")); gpus=${gpus%,}
mpi_cmd --rank-per-gpu --gpus "$gpus" --collectives all_reduce,sendrecv "${sweep[@]}" \
  --json "$out/nccl-mpi-rank-per-gpu.json"
step nccl-mpi-rank-per-gpu "${MPI_CMD[@]}"
[[ -f $out/nccl-mpi-rank-per-gpu.json ]] &&
  check nccl-mpi-rank-per-gpu "all(r['status'] == 'ok' for r in run['results']) and run['cluster']['processes'] == $np"

# MPI rank 1 stops answering in its 4th step for twice the 10 s timeout: every process misses
# its deadline there and aborts its communicator; rank 0 still gathers everyone's results.
# The document must keep the three cases before and call the 4th a hang.
P2P_TEST_STALL_RANK=1:3 mpi_cmd --collectives all_reduce --min-bytes 1K --max-bytes 64K --timeout 10 \
  --no-host-pairs --json "$out/nccl-mpi-stalled-rank.json" --jsonl "$out/nccl-mpi-stalled-rank.jsonl"
expect=nonzero step nccl-mpi-stalled-rank "${MPI_CMD[@]}"
if [[ -f $out/nccl-mpi-stalled-rank.json ]]; then
  check nccl-mpi-stalled-rank "[r['status'] for r in run['results'][:3]] == ['ok'] * 3 and run['results'][3]['status'] == 'hang'"
else
  echo "== CHECK FAILED: no document from the stalled-rank run" | tee -a "$out/nccl-mpi-stalled-rank.txt"
  (( status == 0 )) && status=1
fi

# MPI rank 2 kills itself before its 4th step: the launcher ends the whole job (no document is
# expected), and every process's --jsonl file must hold the cases it finished before.
P2P_TEST_KILL_RANK=2:3 mpi_cmd --collectives all_reduce --min-bytes 1K --max-bytes 64K --timeout 10 \
  --no-host-pairs --jsonl "$out/nccl-mpi-killed-rank.jsonl"
expect=nonzero step nccl-mpi-killed-rank "${MPI_CMD[@]}"
for r in $(seq 0 $((np - 1))); do
  f=$out/nccl-mpi-killed-rank.rank$r.jsonl
  n=$(grep -c '"kind":"nccl_case"' "$f" 2>/dev/null || echo 0)
  echo "== nccl-mpi-killed-rank: rank $r left $n case line(s) in $f" | tee -a "$out/nccl-mpi-killed-rank.txt"
  (( n >= 3 )) || { echo "== CHECK FAILED: rank $r left fewer than 3 case lines"; (( status == 0 )) && status=1; }
done

# The MPI GPU test, with the same launcher.
[[ ${SKIP_TESTS:-0} == 1 ]] || MPIRUN=$mpirun MPIRUN_ARGS="${extra[*]}" step gpu-test-mpi ctest --test-dir "$build" -R NcclMpiGpu --output-on-failure
echo "mpi-nccl-one-gpu: results in $out (exit $status)"
exit "$status"
