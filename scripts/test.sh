#!/usr/bin/env bash
# The whole test suite from a fresh machine: install the Debian packages, build, run every
# test. CPU tests (label `unit`) must pass; GPU tests (label `gpu`) run where a GPU is usable
# and are reported as skipped, with the reason, where none is. The HTML report is checked in
# headless Chromium, which this installs; P2P_SKIP_BROWSER=1 leaves it out (the test then says
# it skipped and why).
#
#   scripts/test.sh           everything CI runs (.ci/run calls exactly this)
#   scripts/test.sh --quick   the CPU tests only, in the sanitized build: what to run while
#                             working (no CUDA build, lint or fuzzing)
#
# Every source is compiled once per purpose and every test runs once:
#   1. the CPU-only configuration, built with clang under AddressSanitizer and
#      UndefinedBehaviorSanitizer with the libFuzzer targets (build-cpu-sanitized/, one unit per
#      target: see cpu_build below), runs every
#      CPU test: everything but bench and nccl must build and pass there, with no memory error,
#      no undefined behaviour and no leak of ours (scripts/sanitizers/lsan.supp names the
#      libraries' own, each with why);
#   2. the CUDA configuration (build-cuda-check/, gcc and nvcc, host code unoptimised) builds
#      the executable and only the tests the first has not: GPU tests, tests of the CUDA and NCCL
#      code, and the few whose assertions depend on what was built in (cmake/P2pTesting.cmake,
#      P2P_TESTS_RUN_ELSEWHERE); a short smoke of the CUDA executable follows. The main job's
#      build/ (Release) is left alone;
#   3. lint (layout, clang-tidy, the size budget) on the first build's compile database, one
#      unit per library (scripts/lib/lint_units.py);
#   4. the fuzzers, in one time box, seeded from the corpora kept in the tree.
# Each phase is timed; the table at the end gives its seconds, its share and its budget (the
# budgets add up to 37 minutes on two cores, each set from a measured run, 30 minutes in all,
# with room for a noisy machine), and a phase or a total over budget prints a warning (never a
# failure: machines are noisy, and the landing limit is 90 minutes).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/phase_timer.sh

quick=0
ctest_args=()
for arg in "$@"; do
  case $arg in
    --quick) quick=1 ;;
    *) ctest_args+=("$arg") ;;
  esac
done

status=0
cpu_dir=${P2P_CPU_BUILD_DIR:-build-cpu-sanitized}
# The CUDA configuration checked here is not the main job's build/ (Release, every GPU
# architecture): it is built to compile-check the CUDA side, link the executable and run the
# tests only it has, so its host code is not optimised (-O0: the build takes half the time).
build_dir=${P2P_BUILD_DIR:-build-cuda-check}

if [[ ${P2P_SKIP_BROWSER:-0} == 1 || $quick == 1 ]]; then
  phase install 60 scripts/install-deps.sh || exit 1
else
  phase install 60 scripts/install-deps.sh --with-browser || exit 1
fi

# A build is quiet unless it fails: then its errors are what CI shows last.
quiet_build() {
  local what=$1 log
  shift
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    echo "$what: the build failed; its errors:"
    grep -E -A12 'error:|FAILED:|undefined reference' "$log" | head -n 200
    tail -n 20 "$log"
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# One translation unit per target (CMake's unity build): each library's and test's sources
# parse nlohmann/json, CLI11 and gtest, and instantiate their templates, once instead of once per
# source, which is most of the sanitized build's time (13 minutes to 7 on two cores). A
# target's sources must then compile together: no two file-local helpers of one name. The CUDA
# configuration below still compiles every source on its own, so a missing #include is caught.
cpu_build() {
  P2P_BUILD_DIR=$cpu_dir scripts/build.sh -DP2P_WITH_CUDA=OFF -DP2P_SANITIZE=ON -DP2P_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0
}
phase "build: CPU, clang ASan+UBSan" 700 \
  quiet_build "CPU-only configuration (-DP2P_WITH_CUDA=OFF), ASan + UBSan" cpu_build || exit 1

cpu_tests() {
  echo "CPU-only configuration (-DP2P_WITH_CUDA=OFF), ASan + UBSan:"
  # Allocation stacks by the fast unwinder: full stacks (fast_unwind_on_malloc=0) make tests
  # that allocate much three times slower, and only the tests that load hwloc's or Open MPI's
  # plugins need them (their leak suppressions match frames beyond libraries built without frame
  # pointers): those are marked FULL_STACKS in CMake, which sets the full unwind for them alone.
  ASAN_OPTIONS=detect_leaks=1 \
    LSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest_output "$cpu_dir" -L unit --output-on-failure -j "$(nproc)" "${ctest_args[@]}"
}
phase "test: CPU (sanitized)" 360 cpu_tests || status=1

if ((!quick)); then
  cuda_build() {
    P2P_BUILD_DIR=$build_dir scripts/build.sh -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
      -DCMAKE_CUDA_FLAGS_DEBUG=-O0 -DP2P_TESTS_RUN_ELSEWHERE="$PWD/$cpu_dir/p2p-cpu-tests.txt"
  }
  phase "build: CUDA (gcc, nvcc)" 680 quiet_build "CUDA configuration" cuda_build || exit 1

  cuda_tests() {
    echo "CUDA configuration: GPU tests, the CUDA and NCCL code's tests, the configuration's own:"
    ctest_output "$build_dir" --output-on-failure -j "$(nproc)" "${ctest_args[@]}"
  }
  phase "test: CUDA configuration" 30 cuda_tests || status=1

  # The CUDA executable itself, as a user starts it: it runs, says what was built in, and
  # the doctor ends with a verdict on a host with or without a GPU (exit 0, 1 or 3; 2 and 4
  # are errors of ours).
  smoke() {
    "$build_dir/p2pcheck" --version || return 1
    local rc=0
    "$build_dir/p2pcheck" doctor >/dev/null 2>&1 || rc=$?
    if ((rc == 2 || rc > 3)); then
      echo "smoke: p2pcheck doctor exited $rc on this host" >&2
      return 1
    fi
    echo "smoke: p2pcheck doctor exited $rc (0 healthy, 1 findings, 3 no usable GPU)"
  }
  phase "smoke: CUDA executable" 30 smoke || status=1

  # Layout (.clang-format) and static checks (.clang-tidy) over the CPU configuration's sources.
  phase lint 200 scripts/lint.sh "$cpu_dir" || status=1

  # Every reader of untrusted input under libFuzzer, from the same build, in one time box
  # (scripts/fuzz.sh shares it out; hwloc_xml, one child process per input, gets the most).
  phase fuzz 180 env P2P_FUZZ_BUILD_DIR="$cpu_dir" P2P_FUZZ_RUNS="${P2P_FUZZ_RUNS:-10000}" \
    scripts/fuzz.sh --total "${P2P_FUZZ_TOTAL_SECONDS:-150}" || status=1
fi

# ctest says only "Skipped"; each test's reason is in its log. Print them, so a GPU test that
# skipped says why in the CI output itself.
for dir in "$cpu_dir" "$build_dir"; do
  log="$dir/Testing/Temporary/LastTest.log"
  if [[ -f $log ]] && grep -q ': Skipped$' "$log"; then
    echo "Skipped tests in $dir and why:"
    awk '/: Skipped$/ { getline reason; pending = 1; next }
         pending && /^\[  SKIPPED \]/ { print "  " $4 ": " reason; pending = 0 }' "$log"
  fi
done

phase_table 2240
count_tests "$cpu_dir" "$build_dir"
exit "$status"
