"""Call overhead of the module and a 1 000-run loop against the `dirac` process (issue 26's
benchmark targets; not a test). Usage, from the repository root after a build:

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_calls.py [build/app/dirac]

Prints (1) the mean wall time of a Heisenberg run of about 1 ms through Python against the
same run inside core's sweep (its wall_time_s column: ApplyOverride, FromScenario, Simulate),
the difference being the per-call overhead of the module, and (2) 1 000 runs with a parameter
change per run from Python against the same loop calling the `dirac` process (timed on 50
process calls and scaled), and their ratio.
"""

import statistics
import subprocess
import sys
import tempfile
import time

import dirac

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/app/dirac"
SCENARIO = "scenarios/heisenberg.yaml"
T_END = 6.0  # about 1 ms of integration on the shared 2-core machine
RUNS = 1000

model = dirac.load(SCENARIO).derive()
for k in range(50):  # warm up (tapes loaded, caches)
    model.run(t_end=T_END, set={"ky": 1 + k / 50})

times = []
for k in range(RUNS):
    start = time.perf_counter()
    model.run(t_end=T_END, set={"ky": 1 + k / RUNS})
    times.append(time.perf_counter() - start)
python_ms = 1e3 * statistics.median(times)
loop_s = sum(times)

table = dirac.sweep(model, vary={"ky": (1, 2, RUNS)}, t_end=T_END, wall_time=True)
core_ms = 1e3 * statistics.median(table.wall_time_s)
print(f"run of t_end = {T_END} s: median {python_ms:.3f} ms through Python, {core_ms:.3f} ms "
      f"in core's sweep: overhead {1e3 * (python_ms - core_ms):.0f} us per call "
      f"({python_ms / core_ms:.3f} x)")

calls = 50
with tempfile.TemporaryDirectory() as folder:
    start = time.perf_counter()
    for k in range(calls):
        subprocess.run([CLI, "run", SCENARIO, "--quiet", "--t-end", str(T_END), "--set",
                        f"ky={1 + k / calls}", "--csv", f"{folder}/run.csv"], check=True)
    process_s = (time.perf_counter() - start) * RUNS / calls
print(f"{RUNS} runs with a parameter change each: {loop_s:.2f} s from Python, {process_s:.1f} s "
      f"calling the dirac process (from {calls} calls): {process_s / loop_s:.0f} x")
