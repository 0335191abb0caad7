#!/usr/bin/env bash
# The whole test suite from a fresh machine: install the Debian packages, build, run every
# test. CPU tests (label `unit`) must pass; GPU tests (label `gpu`) run where a GPU is usable
# and are reported as skipped, with the reason, where none is.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build_dir=${P2P_BUILD_DIR:-build}
status=0
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "$@" || status=$?

# The configuration of a host without CUDA (where results are read, compared and reported):
# everything but bench and nccl must build and pass there too.
cpu_dir=${P2P_CPU_BUILD_DIR:-build-cpu-only}
P2P_BUILD_DIR=$cpu_dir scripts/build.sh -DP2P_WITH_CUDA=OFF >/dev/null
echo "CPU-only configuration (-DP2P_WITH_CUDA=OFF):"
ctest --test-dir "$cpu_dir" -L unit --output-on-failure -j "$(nproc)" "$@" || status=$?

# The sanitizer configuration (ASan + UBSan, no CUDA): the CPU suite again, where reading past a
# buffer, an overflow or a bad cast fails the test that does it. With clang's libFuzzer the same
# build carries the fuzz targets (one build instead of two), and every reader of untrusted input
# is fuzzed for P2P_FUZZ_SECONDS (20; hwloc_xml 6x, nccl_log 2x) each: about 2 minutes on 2 CPUs.
asan_dir=${P2P_ASAN_BUILD_DIR:-build-asan}
fuzz_skip=""
if ! command -v clang++ >/dev/null; then
  fuzz_skip="clang++ is not installed (scripts/install-deps.sh installs clang)"
elif ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    clang++ -x c++ -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
  fuzz_skip="clang++ cannot link -fsanitize=fuzzer (libFuzzer is missing: libclang-rt-<version>-dev)"
fi
if [[ ! -f "$asan_dir/CMakeCache.txt" ]]; then
  asan_args=(-DCMAKE_BUILD_TYPE=Debug -DP2P_WITH_CUDA=OFF -DP2P_SANITIZE=ON)
  [[ -n $fuzz_skip ]] || asan_args+=(-DP2P_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
  P2P_BUILD_DIR=$asan_dir scripts/build.sh "${asan_args[@]}" >/dev/null
else
  cmake --build "$asan_dir" -j "$(nproc)" >/dev/null
fi
echo "Sanitizer configuration (-DP2P_SANITIZE=ON: ASan + UBSan):"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
  ctest --test-dir "$asan_dir" -L unit --output-on-failure -j "$(nproc)" "$@" || status=$?
if [[ -z $fuzz_skip ]] && grep -q '^P2P_FUZZ:BOOL=ON' "$asan_dir/CMakeCache.txt"; then
  P2P_FUZZ_BUILD_DIR=$asan_dir scripts/fuzz.sh "${P2P_FUZZ_SECONDS:-20}" || status=$?
else
  echo "Fuzzing skipped: ${fuzz_skip:-$asan_dir was configured without -DP2P_FUZZ=ON}"
fi

# ctest says only "Skipped"; each test's reason is in its log. Print them, so a GPU test that
# skipped says why in the CI output itself.
log="$build_dir/Testing/Temporary/LastTest.log"
if [[ -f $log ]] && grep -q ': Skipped$' "$log"; then
  echo "Skipped tests and why:"
  awk '/: Skipped$/ { getline reason; pending = 1; next }
       pending && /^\[  SKIPPED \]/ { print "  " $4 ": " reason; pending = 0 }' "$log"
fi
exit "$status"
