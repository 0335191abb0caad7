#!/usr/bin/env bash
# The whole test suite from a fresh machine: install the Debian packages, build, run every
# test. CPU tests (label `unit`) must pass; GPU tests (label `gpu`) run where a GPU is usable
# and are reported as skipped, with the reason, where none is. The HTML report is checked in
# headless Chromium, which this installs; P2P_SKIP_BROWSER=1 leaves it out (the test then says
# it skipped and why).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${P2P_SKIP_BROWSER:-0} == 1 ]]; then
  scripts/install-deps.sh
else
  scripts/install-deps.sh --with-browser
fi
scripts/build.sh
build_dir=${P2P_BUILD_DIR:-build}
status=0
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "$@" || status=$?

# The configuration of a host without CUDA (where results are read, compared and reported),
# built with clang under AddressSanitizer and UndefinedBehaviorSanitizer: everything but bench
# and nccl must build and pass there too, with no memory error, no undefined behaviour and no
# leak of ours (scripts/sanitizers/lsan.supp names the libraries' own, each with why).
cpu_dir=${P2P_CPU_BUILD_DIR:-build-cpu-sanitized}
# Its build is quiet unless it fails: then its errors are what CI shows last.
build_log=$(mktemp)
if ! P2P_BUILD_DIR=$cpu_dir scripts/build.sh -DP2P_WITH_CUDA=OFF -DP2P_SANITIZE=ON -DP2P_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >"$build_log" 2>&1; then
  echo "CPU-only configuration (-DP2P_WITH_CUDA=OFF), ASan + UBSan: the build failed; its errors:"
  grep -E -A12 'error:|FAILED:|undefined reference' "$build_log" | head -n 200
  tail -n 20 "$build_log"
  rm -f "$build_log"
  exit 1
fi
rm -f "$build_log"
echo "CPU-only configuration (-DP2P_WITH_CUDA=OFF), ASan + UBSan:"
# Full stacks for every allocation (fast_unwind_on_malloc=0): the suppressions match frames
# beyond libraries built without frame pointers.
ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir "$cpu_dir" -L unit --output-on-failure -j "$(nproc)" "$@" || status=$?

# Layout (.clang-format) and static checks (.clang-tidy) over the same configuration's sources.
scripts/lint.sh "$cpu_dir" || status=$?

# Every reader of untrusted input under libFuzzer, from the same build: 10,000 inputs each, or
# 30 s (hwloc_xml, one child process per input, 5 min), whichever comes first.
P2P_FUZZ_BUILD_DIR=$cpu_dir P2P_FUZZ_RUNS=${P2P_FUZZ_RUNS:-10000} scripts/fuzz.sh "${P2P_FUZZ_SECONDS:-30}" || status=$?

# ctest says only "Skipped"; each test's reason is in its log. Print them, so a GPU test that
# skipped says why in the CI output itself.
log="$build_dir/Testing/Temporary/LastTest.log"
if [[ -f $log ]] && grep -q ': Skipped$' "$log"; then
  echo "Skipped tests and why:"
  awk '/: Skipped$/ { getline reason; pending = 1; next }
       pending && /^\[  SKIPPED \]/ { print "  " $4 ": " reason; pending = 0 }' "$log"
fi
exit "$status"
