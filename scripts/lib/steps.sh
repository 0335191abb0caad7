# shellcheck shell=bash disable=SC2154  # `out` and `status` belong to the sourcing script
# Steps of the acceptance scripts (sourced, not run): each step runs one command with its output
# in OUT/NAME.txt, prints its exit code and wall time, and folds the outcome into `status`.
# The sourcing script sets `out` (an existing directory) and `status=0` before its first step.
#
#   [expect=CODES] [step_timeout=S] step NAME CMD...
#
# expect: the exit codes that count as the step behaving, as an extended regex ("4", "0|1"), or
# `nonzero` for a step that must fail (a rank made to stall or die); 0 when unset.
# step_timeout: seconds the command may run before `timeout` ends it (30 s later with SIGKILL).
# A step that ends otherwise sets a still-zero `status` to its exit code where success was
# expected, and to 1 where a failure was. Always returns 0, so one step never ends the script.

# Seconds since T0 (an $EPOCHREALTIME reading), with DECIMALS (2) digits after the point.
seconds_since() {
  awk -v a="$1" -v b="$EPOCHREALTIME" -v d="${2:-2}" 'BEGIN { printf "%." d "f", b - a }'
}

step() {
  local name=$1; shift
  local want=${expect:-0} pattern
  pattern=$want
  [[ $want == nonzero ]] && pattern='[1-9][0-9]*'
  local run=("$@")
  [[ -n ${step_timeout:-} ]] && run=(timeout --kill-after=30 "$step_timeout" "$@")
  echo "== $name: $*" | tee "$out/$name.txt"
  local t0=$EPOCHREALTIME rc
  "${run[@]}" >>"$out/$name.txt" 2>&1
  rc=$?
  echo "== $name: exit $rc, wall $(seconds_since "$t0" 1) s" | tee -a "$out/$name.txt"
  [[ $rc =~ ^($pattern)$ ]] && return 0
  if [[ $want == nonzero ]]; then
    echo "== $name: expected a non-zero exit" | tee -a "$out/$name.txt"
  elif [[ $want != 0 ]]; then
    echo "== $name: expected exit $want" | tee -a "$out/$name.txt"
  fi
  if (( status == 0 )); then
    if [[ $want == 0 ]]; then status=$rc; else status=1; fi
  fi
  return 0
}
