#!/usr/bin/env bash
# Builds and runs the Google Benchmark suite and prints the compiled/hand-written ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target dirac_benchmarks
build/tests/bench/dirac_benchmarks --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out=build/benchmarks.json --benchmark_out_format=json >/dev/null
python3 - build/benchmarks.json <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
med = {b["run_name"]: b["real_time"] for b in data["benchmarks"] if b.get("aggregate_name") == "median"}
unit = {b["run_name"]: b["time_unit"] for b in data["benchmarks"] if b.get("aggregate_name") == "median"}
for name, t in med.items():
    print(f"{name:28s} {t:12.3f} {unit[name]}")
c, h = med.get("BM_ResidualCompiled"), med.get("BM_ResidualHandWritten")
if c and h:
    print(f"residual: compiled / hand-written = {c / h:.2f}")
n = med.get("BM_ResidualNative")
if n and h:
    print(f"residual: native (tape: native) / hand-written = {n / h:.2f}")
c, h = med.get("BM_WholeRun50s"), med.get("BM_WholeRun50sHandWritten")
if c and h:
    print(f"whole run: compiled / hand-written = {c / h:.2f}")
e = med.get("BM_Heisenberg20sEngine")
for variant in ("newton:0", "newton:1"):
    h = med.get(f"BM_Heisenberg20sHandWrittenCvode/{variant}")
    if e and h:
        print(f"Heisenberg T = 20 at 1e-12: engine / hand-written CVODE ({variant}) = {e / h:.2f}"
              "  (target <= 1.5)")
j1 = med.get("BM_Sweep1000Heisenberg/jobs:1/real_time")
j2 = med.get("BM_Sweep1000Heisenberg/jobs:2/real_time")
if j1 and j2:
    print(f"sweep of 1000 runs: throughput --jobs 2 / --jobs 1 = {j1 / j2:.2f}  (target >= 1.8)")
PY
