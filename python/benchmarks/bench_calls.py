"""Call overhead of the module and a 1 000-run loop against the `dirac` process (issue 26's
benchmark targets; not a test). Usage, from the repository root after a build:

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_calls.py [build/app/dirac]

Prints, for Heisenberg runs of several lengths (t_end = 0.01 s: next to no integration, so the
fixed cost of a call; 2 s; 6 s: about 1 ms; 20 s):
(1) the median wall time of a run through Python against the same run inside core's sweep (its
    wall_time_s column: ApplyOverride, FromScenario, Simulate), the difference being the
    per-call overhead of the module;
(2) 1 000 runs with a parameter change per run from Python against the same loop calling the
    `dirac` process (which reads the scenario, derives, compiles and writes a CSV each time;
    timed on 50 process calls and scaled), by wall time and by CPU time (the process's user +
    system time, less sensitive to the load of a shared machine), and their ratios.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import dirac

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/app/dirac"
SCENARIO = "scenarios/heisenberg.yaml"
RUNS = 1000
CALLS = 50  # process calls per length (about 70 ms each)


def python_loop(model, t_end):
    """Wall times of RUNS runs [s] and the CPU time of the whole loop [s]."""
    for k in range(20):  # warm up (caches, allocator)
        model.run(t_end=t_end, set={"ky": 1 + k / 20})
    times = []
    cpu = time.process_time()
    for k in range(RUNS):
        start = time.perf_counter()
        model.run(t_end=t_end, set={"ky": 1 + k / RUNS})
        times.append(time.perf_counter() - start)
    return times, time.process_time() - cpu


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_loop(t_end, folder):
    """Wall and CPU time [s] of RUNS calls of the dirac process, from CALLS of them."""
    cpu = children_cpu()
    start = time.perf_counter()
    for k in range(CALLS):
        subprocess.run([CLI, "run", SCENARIO, "--quiet", "--t-end", str(t_end), "--set",
                        f"ky={1 + k / CALLS}", "--csv", os.path.join(folder, "run.csv")],
                       check=True)
    scale = RUNS / CALLS
    return (time.perf_counter() - start) * scale, (children_cpu() - cpu) * scale


model = dirac.load(SCENARIO).derive()
print(f"load average {os.getloadavg()[0]:.1f}; {RUNS} runs per length, {CALLS} process calls")
with tempfile.TemporaryDirectory() as folder:
    for t_end in (0.01, 2.0, 6.0, 20.0):
        times, python_cpu = python_loop(model, t_end)
        table = dirac.sweep(model, vary={"ky": (1, 2, RUNS)}, t_end=t_end, wall_time=True)
        python_ms = 1e3 * statistics.median(times)
        core_ms = 1e3 * statistics.median(table.wall_time_s)
        python_s = sum(times)
        process_s, process_cpu = process_loop(t_end, folder)
        print(f"t_end = {t_end:g} s: a run costs a median {python_ms:.3f} ms through Python, "
              f"{core_ms:.3f} ms in core's sweep: overhead {1e3 * (python_ms - core_ms):.0f} us "
              f"per call ({python_ms / core_ms:.3f} x)")
        print(f"  {RUNS} runs: {python_s:.2f} s wall ({python_cpu:.2f} s CPU) from Python, "
              f"{process_s:.1f} s wall ({process_cpu:.1f} s CPU) calling the process: "
              f"{process_s / python_s:.0f} x by wall time, {process_cpu / python_cpu:.0f} x by "
              f"CPU time, {process_s / (RUNS * python_ms / 1e3):.0f} x by median")
