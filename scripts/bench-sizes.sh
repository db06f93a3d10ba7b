#!/usr/bin/env bash
# Issue 21's size benchmarks (targets, not tests; docs/benchmarks.md, "Systems of any size"):
#  1. dirac_size_benchmarks (tests/bench/bench_sizes.cpp): derive + compile, one right-hand side
#     and a short run against size for each generated family; the minimum process CPU time over
#     REPS repetitions; the log-log slope of derive + compile time against the number of
#     coordinates (least squares over the sizes above the smallest two);
#  2. whole processes, start to CSV written, on the n-link pendulum at n = 6, 8, 10:
#     `dirac run` (default `tape: auto` with the machine code in a private, warmed cache; and
#     `--set tape=interpreter`) against tests/bench/pendulum_chain_sympy_scipy.py (SymPy's
#     LagrangesMethod, lambdify, solve_ivp DOP853 at the scenario's rtol = atol = 1e-12,
#     T = 10, CSV every 0.01); minimum wall and minimum CPU (user + sys) over the runs; the CSVs
#     are compared.
# Prints markdown tables. Usage: bash scripts/bench-sizes.sh [BUILD_DIR]
#   REPS=N (benchmark repetitions, 3), RUNS=N (dirac runs, 5), PY_RUNS=N (SymPy runs, 3),
#   FILTER=REGEX (benchmark filter, default all), PIPELINE_SIZES="6 8 10",
#   NO_PIPELINE=1, NO_BUILD=1, KEEP=DIR (keep the raw sizes.json and pipeline.txt there),
#   BENCH=PATH and DIRAC=PATH (binaries to use instead of BUILD_DIR's).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-3}
runs=${RUNS:-5}
py_runs=${PY_RUNS:-3}
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sympy, scipy, numpy, yaml' ||
  { echo "bench-sizes: needs Debian's python3-sympy, -scipy, -numpy, -yaml" >&2; exit 1; }
if [ -z "${NO_BUILD:-}" ]; then
  cmake --build "$build" -j2 --target dirac dirac_size_benchmarks >/dev/null
fi
bench=${BENCH:-$build/tests/bench/dirac_size_benchmarks}
dirac=${DIRAC:-$build/app/dirac}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# measured $(date -u '+%Y-%m-%d %H:%M UTC'); uptime before: $(uptime)"
"$bench" --benchmark_repetitions="$reps" --benchmark_min_time=0.1 \
  --benchmark_filter="${FILTER:-.}" --benchmark_format=json \
  --benchmark_out="$tmp/sizes.json" --benchmark_out_format=json >/dev/null 2>"$tmp/bench.err" ||
  { cat "$tmp/bench.err" >&2; exit 1; }
echo "# uptime after the benchmark: $(uptime)"

: >"$tmp/pipeline.txt"
# timed LABEL COMMAND...: appends "LABEL wall cpu" (seconds; cpu = the child's user + system
# time from getrusage, microsecond resolution) to pipeline.txt; fails if COMMAND fails.
timed() {
  local label=$1
  shift
  /usr/bin/python3 -c '
import resource, subprocess, sys, time
t0 = time.perf_counter()
subprocess.run(sys.argv[2:], check=True)
wall = time.perf_counter() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(sys.argv[1], f"{wall:.6f}", f"{r.ru_utime + r.ru_stime:.6f}")' "$label" "$@" >>"$tmp/pipeline.txt"
}
if [ -z "${NO_PIPELINE:-}" ]; then
  export DIRAC_TAPE_CACHE="$tmp/tapes"  # a private tape cache, warmed below
  for n in ${PIPELINE_SIZES:-6 8 10}; do
    scenario="$tmp/pendulum_chain_$n.yaml"
    "$dirac" generate pendulum_chain "$n" -o "$scenario" >/dev/null
    "$dirac" run "$scenario" --set tape=native --quiet --csv "$tmp/warm.csv"  # fills the cache
    for i in $(seq "$runs"); do
      for tape in auto interpreter; do
        timed "dirac_$tape $n" "$dirac" run "$scenario" --set tape=$tape --quiet \
          --csv "$tmp/dirac_$n.csv"
      done
    done
    for i in $(seq "$py_runs"); do
      timed "sympy $n" /usr/bin/python3 tests/bench/pendulum_chain_sympy_scipy.py "$scenario" \
        "$n" --csv "$tmp/sympy_$n.csv"
    done
  done
  echo "# uptime after the pipeline: $(uptime)"
fi

if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$tmp/sizes.json" "$tmp/pipeline.txt" "$KEEP"; fi
/usr/bin/python3 - "$tmp" <<'PY'
import json, math, os, sys
from collections import defaultdict
import numpy as np

tmp = sys.argv[1]
data = json.load(open(f"{tmp}/sizes.json"))
best, errors, counters = {}, {}, {}
for b in data["benchmarks"]:
    if b.get("run_type") == "aggregate":
        continue
    kind, family, size = b["run_name"].split("/")[:3]
    key = (kind, family, int(size.split(":")[1]))
    if b.get("error_occurred"):
        errors[key] = b.get("error_message", "error")
        continue
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
    t = b["cpu_time"] * scale
    if key not in best or t < best[key]:
        best[key] = t
        counters[key] = b


def table(kind):
    rows = defaultdict(list)
    for (k, family, n), t in best.items():
        if k == kind:
            rows[family].append((n, counters[(k, family, n)]["dim"], t))
    for (k, family, n), msg in errors.items():
        if k == kind:
            rows[family].append((n, None, msg))
    return {f: sorted(r, key=lambda x: x[0]) for f, r in rows.items()}


def slope(points, first=2, last=None):
    """Least-squares slope of log time against log coordinates over ok[first:last]."""
    ok = [(d, t) for _, d, t in points if d is not None][first:last]
    if len(ok) < 3:
        return "–"
    return f"{np.polyfit(np.log([d for d, _ in ok]), np.log([t for _, t in ok]), 1)[0]:.2f}"


def fmt(t):
    return f"{t * 1e3:.3g} ms" if t >= 1e-3 else f"{t * 1e6:.3g} µs"


order = ["pendulum_chain", "rigid_body_so", "point_vortices", "car_trailers"]
limits = {("pendulum_chain", 20): 0.5, ("rigid_body_so", 10): 0.5, ("point_vortices", 16): 0.5,
          ("car_trailers", 10): 0.5, ("pendulum_chain", 40): 3.0, ("rigid_body_so", 12): 3.0,
          ("point_vortices", 32): 3.0}


def derive_cell(family, n, d, t):
    mark = ""
    if (family, n) in limits:
        mark = " ✓" if t <= limits[(family, n)] else f" ✗ (target {limits[(family, n)]} s)"
    return f"{n} ({d:.0f}): {fmt(t)}{mark}"


def rhs_cell(family, n, d, t):
    return f"{n} ({d:.0f}): {fmt(t)}"


def run_cell(family, n, d, t):
    c = counters[("BM_ShortRun", family, n)]
    per, what = (t / c["rhs"], "rhs") if c["rhs"] > 0 else (t / c["steps"], "step")
    return f"{n} ({d:.0f}): {fmt(per)}/{what} ({c['steps']:.0f}, {c['rhs']:.0f})"


reps = len({b["repetition_index"] for b in data["benchmarks"] if "repetition_index" in b})
for kind, title, cell, slopes in (
        ("BM_DeriveCompile", "derive + compile (ParseScenario + BuildModel)", derive_cell, True),
        ("BM_Rhs", "one right-hand side, interpreted tapes", rhs_cell, True),
        ("BM_ShortRun", "a short run (Model::Simulate, t_end = 0.2, interpreted tapes): CPU per "
         "right-hand side (ODE path) or per step (IDAS, rhs = 0)", run_cell, False)):
    rows = table(kind)
    print(f"\n### {title}, minimum process CPU time of {reps} repetitions\n")
    unit = "time" if slopes else "CPU per rhs (steps, rhs)"
    extra = " slope above the smallest two | slope of the largest three |" if slopes else ""
    print(f"| family | n (coordinates): {unit} |{extra}")
    print("|---|---|" + ("---|---|" if slopes else ""))
    for family in order:
        if family not in rows:
            continue
        cells = [cell(family, n, d, t) if d is not None
                 else f"{n}: fails ({t.split(':')[1].strip()[:40]}…)" for n, d, t in rows[family]]
        tail = f" {slope(rows[family])} | {slope(rows[family], -3)} |" if slopes else ""
        print(f"| {family} | {'; '.join(cells)} |{tail}")

lines = [l.split() for l in open(f"{tmp}/pipeline.txt") if l.strip()]
if lines:
    runs = defaultdict(list)
    for who, n, wall, cpu in lines:
        runs[(who, int(n))].append((float(wall), float(cpu)))
    print("\n### whole process, start to CSV written (n-link pendulum, T = 10, "
          "rtol = atol = 1e-12, CSV every 0.01): minimum wall / minimum CPU (user + sys)\n")
    print("| n | `dirac run` (auto, cached machine code) | `dirac run`, tape=interpreter | "
          "SymPy + SciPy | ratio by wall | ratio by CPU | max abs CSV difference |")
    print("|---|---|---|---|---|---|---|")
    for n in sorted({n for _, n in runs}):
        d, di, p = (runs[(w, n)] for w in ("dirac_auto", "dirac_interpreter", "sympy"))
        mw = lambda r: min(x[0] for x in r)
        mc = lambda r: min(x[1] for x in r)
        a = np.loadtxt(f"{tmp}/dirac_{n}.csv", delimiter=",", skiprows=1)
        b = np.loadtxt(f"{tmp}/sympy_{n}.csv", delimiter=",", skiprows=1)
        same = a.shape == b.shape
        diff = np.abs(a[:, 1:2 * n + 1] - b[:, 1:2 * n + 1]).max() if same else float("nan")
        print(f"| {n} | {mw(d):.3f} s / {mc(d):.3f} s | {mw(di):.3f} s / {mc(di):.3f} s | "
              f"{mw(p):.2f} s / {mc(p):.2f} s | {mw(p) / mw(d):.0f} × | {mc(p) / mc(d):.0f} × "
              f"| {diff:.1e} |")
PY
