#!/usr/bin/env bash
# Whole-process timings of issue 12 (not part of CI; needs hyperfine: apt-get install hyperfine):
#  1. the Heisenberg particle at kx = 1, ky = 2, T = 20, rtol = atol = 1e-12, CSV every 0.01 s:
#     `dirac run` (load + derive + compile + integrate + write; default `tape: auto` with the
#     model's machine code in the cache, and with `tape=interpreter`) against the equivalent
#     SymPy + SciPy script (tests/bench/heisenberg_sympy_scipy.py, Debian's /usr/bin/python3) and
#     the hand-written CVODE program (heisenberg_handwritten); the CSVs are compared; then the
#     first run of a model with `tape=native` and an empty cache (compile included);
#  2. `dirac sweep` of 1000 Heisenberg runs (t_end = 2, every trajectory written) with --jobs 1
#     and --jobs 2: the throughput ratio.
# Usage: bash scripts/bench-pipeline.sh [BUILD_DIR]   (RUNS=N sets hyperfine's run count)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${RUNS:-10}
command -v hyperfine >/dev/null || { echo "bench-pipeline: needs hyperfine" >&2; exit 1; }
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sympy, scipy' ||
  { echo "bench-pipeline: needs Debian's python3-sympy and python3-scipy" >&2; exit 1; }
cmake --build "$build" -j2 --target dirac heisenberg_handwritten >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DIRAC_TAPE_CACHE="$tmp/tapes"  # a private tape cache, filled by the warmup runs

dirac="$build/app/dirac"
run_dirac="$dirac run scenarios/heisenberg.yaml --set ky=2 --t-end 20 --set rtol=1e-12 --set atol=1e-12 --quiet --csv $tmp/dirac.csv"
run_python="/usr/bin/python3 tests/bench/heisenberg_sympy_scipy.py --quiet --csv $tmp/python.csv"
run_hand="$build/tests/bench/heisenberg_handwritten --quiet --csv $tmp/hand.csv"
hyperfine --warmup 2 --runs "$runs" --export-json "$tmp/pipeline.json" \
  -n "dirac run" "$run_dirac" -n "dirac run, tape=interpreter" "$run_dirac --set tape=interpreter" \
  -n "sympy+scipy" "$run_python" -n "hand-written CVODE" "$run_hand"
hyperfine --runs "$runs" --export-json "$tmp/cold.json" --prepare "rm -rf $tmp/tapes" \
  -n "dirac run, tape=native, empty cache" "$run_dirac --set tape=native"

sweep="$dirac sweep scenarios/heisenberg.yaml --t-end 2 --vary kx=0.5:2:25 --vary ky=0.5:4:40 --quiet"
hyperfine --warmup 1 --runs "$(( runs < 5 ? runs : 5 ))" --export-json "$tmp/sweep.json" \
  --prepare "rm -rf $tmp/s1 $tmp/s2" \
  -n "sweep 1000 runs, --jobs 1" "$sweep --jobs 1 --out $tmp/s1" \
  -n "sweep 1000 runs, --jobs 2" "$sweep --jobs 2 --out $tmp/s2"

/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
import numpy as np
tmp = sys.argv[1]
p = {r["command"]: r for r in json.load(open(f"{tmp}/pipeline.json"))["results"]}
p.update({r["command"]: r for r in json.load(open(f"{tmp}/cold.json"))["results"]})
s = {r["command"]: r for r in json.load(open(f"{tmp}/sweep.json"))["results"]}
med = lambda r: r["median"]
d, py, h = med(p["dirac run"]), med(p["sympy+scipy"]), med(p["hand-written CVODE"])
print(f"\ndirac run {1e3*d:.1f} ms, sympy+scipy {1e3*py:.1f} ms, hand-written CVODE {1e3*h:.1f} ms (medians)")
print(f"pipeline: sympy+scipy / dirac run = {py/d:.1f} x  (target >= 20)")
print(f"process:  dirac run / hand-written = {d/h:.2f} x")
di, dc = med(p["dirac run, tape=interpreter"]), med(p["dirac run, tape=native, empty cache"])
print(f"dirac run, tape=interpreter {1e3*di:.1f} ms (sympy+scipy / it = {py/di:.1f} x); "
      f"tape=native with an empty cache (compile included) {1e3*dc:.1f} ms")
s1, s2 = med(s["sweep 1000 runs, --jobs 1"]), med(s["sweep 1000 runs, --jobs 2"])
print(f"sweep: --jobs 1 {s1:.2f} s ({1000/s1:.0f} runs/s), --jobs 2 {s2:.2f} s ({1000/s2:.0f} runs/s): "
      f"throughput ratio {s1/s2:.2f} x  (target >= 1.8)")
load = lambda f: np.loadtxt(f"{tmp}/{f}", delimiter=",", skiprows=1)
a, b, c = load("dirac.csv"), load("python.csv"), load("hand.csv")
for name, other in (("sympy+scipy", b), ("hand-written", c)):
    print(f"max |state difference| dirac vs {name}: {np.abs(a[:, 1:7] - other[:, 1:7]).max():.2e}")
PY
