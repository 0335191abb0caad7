#!/usr/bin/env bash
# Fuzzes every reader of untrusted input with libFuzzer (clang, ASan + UBSan), each for SECONDS
# (default 30; hwloc_xml 10x and nccl_log 2x as long), seeded from the test fixtures. Fails when
# any target finds a crash, a sanitizer report, an exception other than InputError, a document
# written that its own reader refuses (round_trip), an input that takes longer than 5 s (hwloc_xml:
# 10 s), a process over 1 GiB of RSS or one allocation over 256 MiB, or a reader that holds more
# than 32 MiB + 1 KiB per byte of its input (fuzz/input_memory.hpp): a reader whose memory or time
# grows faster than its input fails here, on the seeds in fuzz/seeds/ that name thousands of
# ranks in a few bytes.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]    (default: every target CI runs)
#   scripts/fuzz.sh --total T [TARGET...]    one time box of about T seconds for them all
#                                            (scripts/test.sh: 150), shared out by scale
#
# P2P_FUZZ_RUNS=N ends a target after N inputs if that comes before SECONDS (CI: 10000). Targets
# run P2P_FUZZ_JOBS at a time (default: one per CPU). Build directory: build-fuzz/
# (P2P_FUZZ_BUILD_DIR overrides it; scripts/test.sh points it at its sanitizer build, which has
# the fuzz targets too). Under BUILD/fuzz/: corpus/TARGET (what runs found worth keeping, reused
# by the next run), findings/TARGET/ (an input that failed: replay it with
# `BUILD/fuzz/fuzz_TARGET FILE`), logs/TARGET.log and summary.txt (inputs run per target).
set -euo pipefail
cd "$(dirname "$0")/.."

total=0
if [[ ${1:-} == --total ]]; then
  total=${2:?fuzz.sh: --total needs a number of seconds}
  shift 2
fi
seconds=30
if ((total == 0)); then
  seconds=${1:-30}
  (($# > 0)) && shift
fi
build_dir=${P2P_FUZZ_BUILD_DIR:-build-fuzz}
jobs=${P2P_FUZZ_JOBS:-$(nproc)}

# Target -> seed folders (read-only: libFuzzer adds what it finds to the first folder only).
declare -A seeds=(
  [topology_snapshot_json]="topology/tests/golden"
  [hwloc_xml]="topology/tests/fixtures topology/tests/hostile"
  [policy_json]="results/policies topology/tests/fixtures"
  [doctor_facts_json]="doctor/tests/fixtures"
  [results_document]="fuzz/seeds/results_document"
  [nccl_log]="nccl/tests/fixtures fuzz/seeds/nccl_log"
  [hwloc_xml_in_process]="topology/tests/fixtures"
  [nvidia_smi_topo]="fuzz/seeds/nvidia_smi_topo import/tests/fixtures"
  [nvbandwidth]="import/tests/fixtures"
  [nccl_tests]="import/tests/fixtures fuzz/seeds/nccl_tests"
  [p2p_bandwidth_latency]="import/tests/fixtures"
  [vm_config]="vm/tests/fixtures/configs vm/tests/fixtures/not-configs"
  [host_captures]="vm/tests/fixtures/field import/tests/fixtures doctor/tests/fixtures"
  [judge_document]="fuzz/seeds/results_document"
  [config_space]="topology/tests/fixtures/config-space"
  [paste_text]="import/tests/fixtures/pastes import/tests/fixtures nccl/tests/fixtures"
  [paste_import]="import/tests/fixtures/pastes import/tests/fixtures fuzz/seeds/nccl_tests"
  [round_trip]="import/tests/fixtures/pastes import/tests/fixtures fuzz/seeds/nccl_tests"
  [node_lines]="cluster/tests/fixtures/lines"
  [export_input]="fuzz/seeds/results_document report/tests/fixtures"
  [model_config]="infer/tests/fixtures"
)
# Target -> libFuzzer options of its own.
declare -A options=(
  [topology_snapshot_json]="-dict=fuzz/dicts/json.dict"
  [hwloc_xml]="-dict=fuzz/dicts/hwloc_xml.dict"
  [policy_json]="-dict=fuzz/dicts/json.dict"
  [doctor_facts_json]="-dict=fuzz/dicts/json.dict"
  [results_document]="-dict=fuzz/dicts/json.dict"
  [nccl_log]="-dict=fuzz/dicts/nccl_log.dict"
  # hwloc itself, in this process: it crashes on some inputs (topology/tests/hostile/, found
  # by this target within seconds) and leaks objects on others, so it only hunts for such
  # inputs and runs only when named.
  [hwloc_xml_in_process]="-dict=fuzz/dicts/hwloc_xml.dict -detect_leaks=0"
  [nvidia_smi_topo]=""
  [nvbandwidth]="-dict=fuzz/dicts/json.dict"
  [nccl_tests]="-dict=fuzz/dicts/json.dict"
  [p2p_bandwidth_latency]=""
  [vm_config]=""
  [host_captures]="-dict=fuzz/dicts/json.dict"
  [judge_document]="-dict=fuzz/dicts/json.dict"
  [config_space]="-max_len=4096"
  [paste_text]="-dict=fuzz/dicts/paste_text.dict"
  [paste_import]="-dict=fuzz/dicts/paste_text.dict"
  [round_trip]="-dict=fuzz/dicts/paste_text.dict"
  [node_lines]="-dict=fuzz/dicts/json.dict"
  [export_input]="-dict=fuzz/dicts/json.dict"
  [model_config]="-dict=fuzz/dicts/json.dict"
)
# Target -> how many times SECONDS it runs. hwloc_xml forks a child per input (hwloc reads in it,
# as in p2pcheck), 10-100x slower than the JSON readers; nccl_log runs std::regex per line. With
# two CPUs, hwloc_xml runs on one while all the others share the other; at 10x it reaches 10,000
# inputs (about 35-60 a second) where CI passes P2P_FUZZ_RUNS=10000.
declare -A scale=([hwloc_xml]=10 [nccl_log]=2)
# Target -> largest input (bytes). Real NCCL logs of a few ranks are under 8 KiB, and std::regex
# costs per byte: smaller inputs, more of them.
declare -A max_len=([nccl_log]=16384)
# The slowest first, so that the others share the remaining CPUs meanwhile.
ci_targets=(hwloc_xml topology_snapshot_json policy_json doctor_facts_json results_document nccl_log nvidia_smi_topo
  nvbandwidth nccl_tests p2p_bandwidth_latency vm_config host_captures judge_document config_space
  paste_text paste_import round_trip node_lines export_input model_config)
# Time and memory per input: hwloc_xml reads in a child process, the others in this one.
declare -A timeout=([hwloc_xml]=10 [hwloc_xml_in_process]=10)
targets=("$@")
((${#targets[@]})) || targets=("${ci_targets[@]}")
for t in "${targets[@]}"; do
  [[ -n ${seeds[$t]+set} ]] || { echo "fuzz.sh: unknown target '$t' (known: ${!seeds[*]})" >&2; exit 2; }
done

# --total T: one time box for the whole run, shared out by each target's scale, so that the
# targets, run `jobs` at a time, end within about T seconds (the slowest first, so the others
# fill the remaining CPUs meanwhile); no target gets more than T.
if ((total > 0)); then
  weight=0
  for t in "${targets[@]}"; do weight=$((weight + ${scale[$t]:-1})); done
  seconds=$(((total * jobs + weight - 1) / weight))
  ((seconds >= 1)) || seconds=1
fi
target_seconds() {
  local s=$((seconds * ${scale[$1]:-1}))
  if ((total > 0 && s > total)); then s=$total; fi
  echo "$s"
}

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found; libFuzzer needs clang (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug -DP2P_WITH_CUDA=OFF -DP2P_BUILD_TESTS=OFF -DP2P_FUZZ=ON >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

out="$build_dir/fuzz"
mkdir -p "$out/logs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# Runs one target; its exit status goes to logs/TARGET.rc (so `wait -n` never trips set -e).
fuzz_one() {
  local t=$1 rc=0
  mkdir -p "$out/corpus/$t" "$out/findings/$t"
  # shellcheck disable=SC2086  # seed folders and options are lists of words on purpose
  "$out/fuzz_$t" -max_total_time="$(target_seconds "$t")" ${P2P_FUZZ_RUNS:+-runs=$P2P_FUZZ_RUNS} -timeout="${timeout[$t]:-5}" -rss_limit_mb=1024 -malloc_limit_mb=256 -max_len="${max_len[$t]:-65536}" -print_final_stats=1 ${options[$t]} \
    -artifact_prefix="$out/findings/$t/" "$out/corpus/$t" ${seeds[$t]} >"$out/logs/$t.log" 2>&1 || rc=$?
  echo "$rc" >"$out/logs/$t.rc"
}

for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  fuzz_one "$t" &
done
wait

status=0
summary=()
for t in "${targets[@]}"; do
  log="$out/logs/$t.log"
  rc=$(cat "$out/logs/$t.rc")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  per_s=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  verdict=ok
  if ((rc != 0)); then
    verdict="FAILED (exit $rc; $log)"
    status=1
    echo "fuzz.sh: $t failed; the end of $log:" >&2
    tail -n 40 "$log" >&2
    echo "fuzz.sh: the input: $(ls -d "$out/findings/$t"/* 2>/dev/null | head -1)" >&2
  fi
  summary+=("$(printf '  %-24s %9s inputs %7s/s  %s' "$t" "${runs:-?}" "${per_s:-?}" "$verdict")")
done
box=""
((total > 0)) && box=", a time box of $total s in all"
echo "fuzz.sh: ${seconds} s per target (hwloc_xml ${scale[hwloc_xml]}x, nccl_log ${scale[nccl_log]}x)$box${P2P_FUZZ_RUNS:+ or $P2P_FUZZ_RUNS inputs, whichever comes first}, ${jobs} at a time"
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
exit "$status"
