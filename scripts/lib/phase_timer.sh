# shellcheck shell=bash
# Phases of scripts/test.sh (sourced, not run): each runs one command and is timed; the table at
# the end gives every phase's wall seconds, its share of the total and its budget.
#
#   phase NAME BUDGET_S CMD...   prints a header, runs CMD (a program or a shell function),
#                                records its seconds and exit code, and returns that code
#   phase_table TOTAL_BUDGET_S   the table; then one warning line per phase over its budget and
#                                one for a total over TOTAL_BUDGET_S. Warnings, never failures:
#                                a busy machine is slower, and the landing limit is far above
#   count_tests DIR...           one closing line over the ctest runs of the build directories:
#                                "tests: N passed, N failed, N skipped"
# The `ctest_output` function runs ctest and keeps its output in DIR/ctest-output.txt for
# count_tests.

phase_names=()
phase_seconds=()
phase_budgets=()
phase_codes=()

phase() {
  local name=$1 budget=$2 start=$EPOCHREALTIME rc=0
  shift 2
  echo "== $name (budget ${budget} s)"
  "$@" || rc=$?
  phase_names+=("$name")
  phase_budgets+=("$budget")
  phase_codes+=("$rc")
  phase_seconds+=("$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')")
  return "$rc"
}

phase_table() {
  local total_budget=$1 total=0 i
  for i in "${!phase_names[@]}"; do total=$((total + phase_seconds[i])); done
  echo "Phase timings:"
  printf '  %-32s %8s %6s %8s  %s\n' phase seconds share budget result
  for i in "${!phase_names[@]}"; do
    printf '  %-32s %8d %5d%% %8d  %s\n' "${phase_names[i]}" "${phase_seconds[i]}" \
      $((total > 0 ? (100 * phase_seconds[i] + total / 2) / total : 0)) "${phase_budgets[i]}" \
      "$( ((phase_codes[i] == 0)) && echo ok || echo "exit ${phase_codes[i]}")"
  done
  printf '  %-32s %8d %5d%% %8d\n' total "$total" 100 "$total_budget"
  for i in "${!phase_names[@]}"; do
    if ((phase_seconds[i] > phase_budgets[i])); then
      echo "warning: phase '${phase_names[i]}' took ${phase_seconds[i]} s, over its budget of ${phase_budgets[i]} s"
    fi
  done
  if ((total > total_budget)); then
    echo "warning: the whole run took $total s, over its budget of $total_budget s"
  fi
}

# ctest_output DIR ARGS...: ctest in DIR, its output shown and kept for count_tests.
ctest_output() {
  local dir=$1
  shift
  ctest --test-dir "$dir" "$@" 2>&1 | tee "$dir/ctest-output.txt"
}

count_tests() {
  local passed=0 failed=0 skipped=0 dir out total f s
  for dir in "$@"; do
    out="$dir/ctest-output.txt"
    [[ -f $out ]] || continue
    total=$(sed -n -E 's/.* tests failed out of ([0-9]+)$/\1/p' "$out" | tail -1)
    f=$(sed -n -E 's/.*, ([0-9]+) tests failed out of [0-9]+$/\1/p' "$out" | tail -1)
    s=$(grep -c -E '\(Skipped\)$' "$out" || true)
    passed=$((passed + ${total:-0} - ${f:-0} - s))
    failed=$((failed + ${f:-0}))
    skipped=$((skipped + s))
  done
  echo "tests: $passed passed, $failed failed, $skipped skipped"
}
