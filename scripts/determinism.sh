#!/usr/bin/env bash
# Same input, same bytes: runs every shipped scenario N times (default 20) under address-space
# randomisation and reports every output that differs between runs.
#
#   scripts/determinism.sh [-n RUNS] [-t T_END] [-b BUILD_DIR] [SCENARIO.yaml ...]
#
# Per scenario and run: `dirac run --t-end T` (CSV), `dirac equations`, `dirac equations
# --latex`, `dirac analyze`, and for optimal-control / boundary-value scenarios `dirac solve`
# (its CSV, and its report with the wall-clock times removed). Exit status 1 if anything differs.
set -euo pipefail

runs=20
t_end=2
build=build
while getopts "n:t:b:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    t) t_end=$OPTARG ;;
    b) build=$OPTARG ;;
    *) sed -n '2,10p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

root=$(cd "$(dirname "$0")/.." && pwd)
dirac=$build/app/dirac
[[ -x $dirac ]] || dirac=$root/$build/app/dirac
[[ -x $dirac ]] || { echo "determinism.sh: no dirac binary under $build/app" >&2; exit 2; }
if [[ $# -gt 0 ]]; then
  scenarios=()
  for s in "$@"; do scenarios+=("$(realpath "$s")"); done
else
  scenarios=("$root"/scenarios/*.yaml)
fi
dirac=$(realpath "$dirac")

aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo "?")
echo "address-space randomisation: randomize_va_space = $aslr (2 = full)"
[[ $aslr == 2 ]] || echo "warning: randomisation is not full, so this check proves less" >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DIRAC_TAPE_CACHE=$work/tape-cache

# Removes what legitimately varies: wall-clock times in the solve report.
# Progress lines ("dirac: FILE: STAGE, N s") appear only when a command runs past 5 s (a loaded
# machine); they are about time, not results.
strip_progress() { grep -Ev '^dirac: .*, [0-9]+ s(; .*)?$' || true; }
strip_times() { sed -E -e 's/, [0-9.e+-]+ ms/, T ms/g' -e 's/"seconds": [0-9.e+-]+/"seconds": T/g'; }

failures=0
checked=0
for scenario in "${scenarios[@]}"; do
  name=$(basename "$scenario" .yaml)
  solve=0
  grep -qE '^(optimal_control|boundary_values?):' "$scenario" && solve=1
  for ((i = 1; i <= runs; ++i)); do
    out=$work/$name.$i
    mkdir -p "$out"
    "$dirac" run "$scenario" --t-end "$t_end" --quiet --csv "$out/run.csv" \
      >"$out/run.stdout" 2>"$out/run.stderr" || echo "exit $?" >>"$out/run.stderr"
    { "$dirac" equations "$scenario" 2>&1 || echo "exit $?"; } | strip_progress >"$out/equations.txt"
    { "$dirac" equations "$scenario" --latex 2>&1 || echo "exit $?"; } | strip_progress >"$out/latex.txt"
    { "$dirac" analyze "$scenario" 2>&1 || echo "exit $?"; } | strip_progress >"$out/analyze.txt"
    if ((solve)); then
      # From inside the run's folder, so the "wrote solve.csv" line names the same path.
      (cd "$out" && "$dirac" solve "$scenario" --csv solve.csv 2>&1 | strip_progress | strip_times >solve.txt) || true
    fi
  done
  for f in "$work/$name.1"/*; do
    file=$(basename "$f")
    distinct=$(for ((i = 1; i <= runs; ++i)); do
      [[ -f $work/$name.$i/$file ]] && md5sum <"$work/$name.$i/$file" || echo missing
    done | sort | uniq -c | wc -l)
    checked=$((checked + 1))
    if ((distinct != 1)); then
      failures=$((failures + 1))
      echo "DIFFERS  $name $file: $distinct distinct outputs in $runs runs"
    fi
  done
  echo "checked  $name ($runs runs)"
done
echo "$checked outputs x $runs runs: $failures differ"
((failures == 0))
