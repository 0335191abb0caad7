#!/usr/bin/env bash
# Layout and static checks of every tracked C++/CUDA source (*.cpp *.hpp *.cu *.cuh), with the
# .clang-format and .clang-tidy at the repository root (clang-format and clang-tidy 14, Debian's
# packages; another version lays code out differently, so the check would fail on files that
# are fine).
#
#   scripts/lint.sh --fix          # rewrite every source in place with clang-format; nothing else
#   scripts/lint.sh [BUILD_DIR]    # check: exit 1 if a file is not laid out as clang-format would
#                                  # lay it out, or clang-tidy finds anything
#
# clang-tidy reads compile_commands.json of the CPU-only configuration (-DP2P_WITH_CUDA=OFF),
# in BUILD_DIR (default build-lint, configured here when it has none; nothing is compiled: no
# source is generated). It checks the sources of the modules, not their tests (tests/ folders:
# half the translation units, and doubling the time, for code that the tests run anyway) and
# not the .cu files (nvcc's flags are not clang's); headers are checked as the sources include
# them. Both tools run on every core. Functions of the sources clang-tidy does not parse (CUDA
# code, headers) are measured by scripts/lib/function_length.py instead, and every include
# between folders is held against scripts/layers.txt (scripts/lib/include_layers.py).
set -euo pipefail
cd "$(dirname "$0")/.."

pick() {  # the versioned name where installed: a bare clang-format may be another release
  if command -v "$1-14" >/dev/null; then echo "$1-14"; else echo "$1"; fi
}
clang_format=${CLANG_FORMAT:-$(pick clang-format)}
clang_tidy=${CLANG_TIDY:-$(pick clang-tidy)}
jobs=$(nproc)

fix=0
build_dir=build-lint
for arg in "$@"; do
  case $arg in
    --fix) fix=1 ;;
    -*) echo "lint: unknown option $arg (--fix, or a build directory)" >&2; exit 2 ;;
    *) build_dir=$arg ;;
  esac
done

sources() { git ls-files -z -- '*.cpp' '*.hpp' '*.cu' '*.cuh'; }

if ((fix)); then
  sources | xargs -0 -P "$jobs" -n 16 "$clang_format" -i
  echo "lint: formatted $(sources | tr -cd '\0' | wc -c) files with $("$clang_format" --version)"
  exit 0
fi

status=0

# The size budget: no source over 400 lines, and no function over 60 (clang-tidy's
# readability-function-size, below), but those scripts/size-budget.txt lists with why.
budget=400
mapfile -t allowed < <(grep -v -E '^(#|$)' scripts/size-budget.txt | awk '$1 !~ /:/ {print $1}')
while IFS= read -r -d '' file; do
  [[ $file == */tests/* || $file == fuzz/* ]] && continue
  lines=$(wc -l <"$file")
  listed=0
  for a in "${allowed[@]}"; do [[ $a == "$file" ]] && listed=1; done
  if ((lines > budget && !listed)); then
    echo "lint: $file: $lines lines, over the budget of $budget: split it by subject" >&2
    status=1
  elif ((lines <= budget && listed)); then
    echo "lint: $file: $lines lines, back under the budget: take it off scripts/size-budget.txt" >&2
    status=1
  fi
done < <(sources)
echo "lint: size budget: ${#allowed[@]} files over $budget lines, each listed with why"

# The layers: which folder may include which (scripts/layers.txt), on every tracked source.
layers_rc=0
sources | xargs -0 python3 scripts/lib/include_layers.py scripts/layers.txt >&2 || layers_rc=$?
if ((layers_rc == 2)); then
  echo "lint: scripts/layers.txt or a source could not be read (above)" >&2
  status=1
elif ((layers_rc != 0)); then
  echo "lint: includes above go where scripts/layers.txt does not allow: move the code, or the" \
    "layer line if the arrow is meant (a folder names only folders above it)" >&2
  status=1
else
  echo "lint: layers: every include between folders is one scripts/layers.txt allows"
fi

echo "lint: clang-format ($("$clang_format" --version | sed 's/.*version //'))"
if ! sources | xargs -0 -P "$jobs" -n 16 "$clang_format" --dry-run -Werror; then
  echo "lint: files above are not laid out as .clang-format says; scripts/lint.sh --fix rewrites them" >&2
  status=1
fi

if [[ ! -f $build_dir/compile_commands.json ]]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S . -B "$build_dir" "${generator[@]}" -DP2P_WITH_CUDA=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi

# The units clang-tidy checks: one per library or executable, which includes its sources in turn
# (scripts/lib/lint_units.py says why and what it asks of the sources).
units_dir=$build_dir/lint-units
mapfile -t units < <(python3 scripts/lib/lint_units.py "$build_dir/compile_commands.json" "$PWD" "$units_dir")
if ((${#units[@]} == 0)); then
  echo "lint: no sources in $build_dir/compile_commands.json" >&2
  exit 2
fi
sources_checked=$(cat "${units[@]}" | wc -l)

echo "lint: clang-tidy ($("$clang_tidy" --version | sed -n 's/.*version //p')) over $sources_checked files in ${#units[@]} units, $jobs at a time"
# CLANG_TIDY_CHECKS replaces the checks for one run ('-*,clang-analyzer-*': see .clang-tidy).
# A unit includes its sources, which bugprone-suspicious-include would flag, and the sources'
# lines pass the header filter like the project's headers do.
checks=(--checks="${CLANG_TIDY_CHECKS:+$CLANG_TIDY_CHECKS,}-bugprone-suspicious-include")
header_filter=$(sed -n "s/^HeaderFilterRegex: '\(.*\)\\.hpp\$'$/\1\\.(hpp|cpp)$/p" .clang-tidy)
if [[ -z $header_filter ]]; then
  echo "lint: .clang-tidy has no HeaderFilterRegex ending in \\.hpp\$ to extend to the sources" >&2
  exit 2
fi
start=$SECONDS
# stderr carries only "N warnings generated." (and the count suppressed outside the project's
# headers) besides real errors, which stay. Functions over the size budget
# (readability-function-size) are warnings, held against scripts/size-budget.txt below.
tidy_out=$(mktemp)
trap 'rm -f "$tidy_out"' EXIT
if ! printf '%s\0' "${units[@]}" |
    xargs -0 -P "$jobs" -n 1 "$clang_tidy" -p "$units_dir" --config-file=.clang-tidy --quiet \
      --header-filter="$header_filter" --warnings-as-errors='*,-readability-function-size' "${checks[@]}" \
      2> >(grep -v -E '^([0-9]+ warnings? (and [0-9]+ errors? )?generated\.|Suppressed [0-9]+ warnings|Use -header-filter|$)' >&2) |
    tee "$tidy_out" |
    awk '/: (warning|error): / { skip = /readability-function-size/ } !skip { print }'; then
  echo "lint: clang-tidy found the problems above (checks and why: .clang-tidy)" >&2
  if grep -q 'clang-diagnostic-error' "$tidy_out"; then
    echo "lint: a library's sources are checked as one unit (scripts/lib/lint_units.py): two file-local" \
      "definitions of one name clash there; the second copy belongs in a shared header" >&2
  fi
  status=1
fi
echo "lint: clang-tidy took $((SECONDS - start)) s"

# Functions over 60 lines: each must be listed in scripts/size-budget.txt as FILE:FUNCTION.
# clang-tidy measures the sources of the build without CUDA; scripts/lib/function_length.py
# measures the rest by their text (the .cu files, the CUDA-only sources, and every header, which
# clang-tidy sees only as the CPU sources include them), with clang-tidy's count of lines.
mapfile -t tidied < <(sed -n -E "s|^#include \"$PWD/(.*)\"$|\1|p" "${units[@]}" | sort -u)
mapfile -t untidied < <(sources | tr '\0' '\n' | grep -v -E '(^|/)tests/|^fuzz/' |
  grep -v -x -F -f <(printf '%s\n' "${tidied[@]}") || true)
echo "lint: function size: ${#untidied[@]} sources outside clang-tidy's units (CUDA code, headers), measured by their text"
mapfile -t long_functions < <({
  sed -n -E "s|^$PWD/([^:]+):[0-9]+:[0-9]+: warning: function '([^']+)' exceeds.*|\1:\2|p" "$tidy_out"
  python3 scripts/lib/function_length.py "${untidied[@]}" | cut -d' ' -f1
} | sort -u)
for f in "${long_functions[@]}"; do
  if ! awk -v f="$f" '$1 == f { found = 1 } END { exit !found }' scripts/size-budget.txt; then
    echo "lint: $f: a function over 60 lines: split it by subject" >&2
    status=1
  fi
done
while read -r listed _; do
  [[ $listed == *:* ]] || continue
  if [[ " ${long_functions[*]} " != *" $listed "* ]]; then
    echo "lint: $listed: no longer over 60 lines (or gone): take it off scripts/size-budget.txt" >&2
    status=1
  fi
done < <(grep -v -E '^(#|$)' scripts/size-budget.txt)
echo "lint: function size: ${#long_functions[@]} functions over 60 lines, each listed with why"
exit "$status"
